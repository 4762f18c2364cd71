/// A value kept behind one reference and copied when written: copies of a struct holding it share one allocation
/// until one of them changes it (the way `Array` keeps its elements).
///
/// The box is mutated only through `value`'s setter or `_modify`, and only once `isKnownUniquelyReferenced` said
/// that no other copy refers to it; a box two copies share is never written, so it may cross threads.
struct CopyOnWrite<Value: Sendable & Equatable>: Sendable, Equatable {
    // Safe: a box is written only while this copy holds the sole reference to it (see above), so no other thread
    // can be reading it then.
    private final class Box: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    var value: Value {
        get { box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    /// Takes `other`'s box when it holds an equal value: the two then share one allocation. Nothing a reader sees
    /// changes.
    mutating func share(_ other: CopyOnWrite) {
        if box !== other.box, box.value == other.box.value { box = other.box }
    }

    /// Whether the two hold the same box.
    func isShared(with other: CopyOnWrite) -> Bool { box === other.box }

    static func == (lhs: CopyOnWrite, rhs: CopyOnWrite) -> Bool {
        lhs.box === rhs.box || lhs.box.value == rhs.box.value
    }
}
