import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document as a plain tree of elements (names without prefix, attributes, children, text), read with
/// Foundation's parser within bounds: no external entities, at most `maxElements` elements nested at most
/// `maxDepth` deep. Enough for a DASH manifest; a hostile one cannot make it grow without end.
public struct XMLNode: Sendable, Equatable {
    public var name: String
    public var attributes: [String: String]
    public var children: [XMLNode]
    /// The element's own text, trimmed (a `BaseURL`'s link).
    public var text: String

    public static let maxElements = 400_000
    public static let maxDepth = 32

    /// The children named `name`.
    public func all(_ name: String) -> [XMLNode] { children.filter { $0.name == name } }
    /// The first child named `name`.
    public func first(_ name: String) -> XMLNode? { children.first { $0.name == name } }
    public subscript(attribute: String) -> String? { attributes[attribute] }

    /// The document `bytes` hold; nil with the parser's reason when they are not well-formed XML within the bounds.
    public static func parse(_ bytes: [UInt8]) -> Result<XMLNode, XMLTreeError> {
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let failure = builder.failure { return .failure(failure) }
        guard parsed, let root = builder.root else {
            return .failure(.malformed(parser.parserError.map { "\($0.localizedDescription)" } ?? "not well-formed XML"))
        }
        return .success(root)
    }
}

public enum XMLTreeError: Error, Sendable, Equatable {
    case malformed(String)
    case tooLarge(elements: Int)
    case tooDeep(levels: Int)
}

/// Builds the tree as the parser reports elements; stops the parser at a bound. Used on one thread, inside one
/// `XMLNode.parse` call.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    var stack: [XMLNode] = []
    var root: XMLNode?
    var count = 0
    var failure: XMLTreeError?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        count += 1
        guard count <= XMLNode.maxElements else { return stop(parser, .tooLarge(elements: XMLNode.maxElements)) }
        guard stack.count < XMLNode.maxDepth else { return stop(parser, .tooDeep(levels: XMLNode.maxDepth)) }
        // `dash:MPD` and `MPD` alike.
        let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
        stack.append(XMLNode(name: name, attributes: attributes, children: [], text: ""))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty, stack[stack.count - 1].text.utf8.count < 64 << 10 else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard var node = stack.popLast() else { return }
        node.text = node.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
    }

    private func stop(_ parser: XMLParser, _ reason: XMLTreeError) {
        if failure == nil { failure = reason }
        parser.abortParsing()
    }
}
