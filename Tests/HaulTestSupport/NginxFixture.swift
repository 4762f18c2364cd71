import Foundation
import HaulCore
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx on 127.0.0.1 for resume tests against a server we did not write.
///
/// Runs `nginx` in the foreground as a child process we own (`daemon off; master_process off;`)
/// with a private prefix directory: its own `nginx.conf`, pid file, logs, temp paths and document
/// root. Files written with `write(file:bytes:)` are served at `/NAME`, and also at `/cd/NAME` with
/// `Content-Disposition: attachment; filename="NAME"` (or `filename*=UTF-8''VALUE` when the URL
/// has `?name=VALUE`, VALUE already percent-encoded).
///
/// The access log has one tab-separated line per request; see `AccessEntry`. nginx writes it after
/// the last byte is sent, so await it with `eventually` rather than reading it right after a download.
///
/// `start(locations:http:)` adds configuration text: `locations` inside the `server` block (next to `location /`),
/// `http` inside the `http` block (a `map`, another `server`). Files the text names (an htpasswd, a second root)
/// are the test's to write, by absolute path.
public final class NginxFixture: Sendable {
    /// Where the binary is expected (Debian's package).
    public static let binaryPath = "/usr/sbin/nginx"

    /// Whether nginx is installed; tests use it in `.enabled(if:)`.
    public static var isAvailable: Bool { access(binaryPath, X_OK) == 0 }

    /// One request in the access log.
    public struct AccessEntry: Sendable, Equatable {
        public var method: String
        public var uri: String
        public var status: Int
        /// Bytes sent including the response head (`$bytes_sent`).
        public var bytesSent: Int64
        /// Body bytes sent (`$body_bytes_sent`).
        public var bodyBytesSent: Int64
        /// The request's Range header, nil when absent.
        public var range: String?
        /// The request's If-Range header, nil when absent.
        public var ifRange: String?
        /// nginx's connection serial number (same number = reused connection).
        public var connection: Int
        /// The request's Authorization header, nil when absent.
        public var authorization: String? = nil
        /// The request's Cookie header, nil when absent.
        public var cookie: String? = nil
        /// The user of a Basic Authorization header (`$remote_user`), nil when none.
        public var remoteUser: String? = nil
        /// The request's Via header (a proxy's mark), nil when absent.
        public var via: String? = nil
        /// The request's Proxy-Authorization header (meant for a proxy, never for the server), nil when absent.
        public var proxyAuthorization: String? = nil
    }

    public let port: UInt16
    /// The private prefix directory (configuration, logs, temp paths).
    public let prefix: TemporaryDirectory
    /// Document root, inside `prefix`.
    public let root: String
    /// The self-signed certificate (for 127.0.0.1) when serving HTTPS, to pass as a CA bundle.
    public let certificate: String?
    private let processBox: PthreadMutex<HaulProcess>
    private var process: HaulProcess { processBox.withLock { $0 } }

    private init(port: UInt16, prefix: TemporaryDirectory, root: String, certificate: String?, process: HaulProcess) {
        self.port = port
        self.prefix = prefix
        self.root = root
        self.certificate = certificate
        self.processBox = PthreadMutex(process)
    }

    /// Starts nginx on a free loopback port and waits (bounded) until it accepts connections.
    /// Retries with another port when the chosen one was taken in the meantime.
    /// With `tls`, it serves HTTPS and HTTP/2 with a fresh self-signed certificate (made with the openssl tool).
    /// `locations` and `http` are added to the configuration (see the type's documentation).
    public static func start(
        tls: Bool = false, locations: String = "", http: String = "", timeout: Duration = .seconds(10)
    ) async throws -> NginxFixture {
        let prefix = try TemporaryDirectory(prefix: "haul-nginx")
        let root = prefix.file("root")
        for directory in [root, prefix.file("temp")] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let certificate = tls ? try makeCertificate(in: prefix) : nil
        let deadline = ContinuousClock.now + timeout
        var lastError = ""
        for _ in 0..<5 {
            guard let port = LoopbackPort.free() else { continue }
            let configuration = prefix.file("nginx.conf")
            try Self.configuration(port: port, prefix: prefix.path, root: root, tls: tls, locations: locations, http: http)
                .write(toFile: configuration, atomically: true, encoding: .utf8)
            let process = try HaulProcess(
                URL(fileURLWithPath: binaryPath),
                arguments: ["-e", prefix.file("error.log"), "-p", prefix.path + "/", "-c", configuration])
            let fixture = NginxFixture(port: port, prefix: prefix, root: root, certificate: certificate, process: process)
            let outcome = try await eventuallyValue(
                "nginx to listen on 127.0.0.1:\(port)", timeout: ContinuousClock.now.duration(to: deadline)
            ) { () -> Bool? in
                if LoopbackPort.isAccepting(port) { return true }
                return process.exitStatus == nil ? nil : false
            }
            if outcome { return fixture }
            lastError = fixture.errorLog()
            guard lastError.contains("Address already in use") else { break }
        }
        throw NginxFailure(message: "nginx did not start:\n\(lastError)")
    }

    deinit { stop() }

    /// `http(s)://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> String { "\(certificate == nil ? "http" : "https")://127.0.0.1:\(port)\(path)" }

    /// Writes a self-signed certificate for 127.0.0.1 and its key into the prefix; returns the certificate's path.
    static func makeCertificate(in prefix: TemporaryDirectory) throws -> String {
        let certificate = prefix.file("cert.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", prefix.file("key.pem"), "-out", certificate,
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw NginxFailure(message: "openssl could not make a certificate") }
        return certificate
    }

    /// Writes `bytes` to `name` (may contain subdirectories) under the document root.
    public func write(file name: String, bytes: [UInt8]) throws {
        let path = root + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Raw access log lines so far.
    public func accessLog() -> [String] {
        let text = (try? String(contentsOfFile: prefix.file("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Parsed access log entries so far.
    public func accessEntries() -> [AccessEntry] {
        accessLog().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 8, let status = Int(fields[2]), let bytes = Int64(fields[3]),
                  let body = Int64(fields[4]), let connection = Int(fields[7]) else { return nil }
            func header(_ value: String) -> String? { value == "-" ? nil : value }
            func field(_ index: Int) -> String? { index < fields.count ? header(fields[index]) : nil }
            return AccessEntry(
                method: fields[0], uri: fields[1], status: status, bytesSent: bytes, bodyBytesSent: body,
                range: header(fields[5]), ifRange: header(fields[6]), connection: connection,
                authorization: field(8), cookie: field(9), remoteUser: field(10), via: field(11),
                proxyAuthorization: field(12))
        }
    }

    /// The error log so far (startup problems end up here).
    public func errorLog() -> String {
        (try? String(contentsOfFile: prefix.file("error.log"), encoding: .utf8)) ?? ""
    }

    /// Kills nginx at once (SIGKILL: every connection is cut mid-answer), then starts it again on the same port with
    /// the same configuration, logs and document root, and waits (bounded) until it accepts connections.
    public func restart(timeout: Duration = .seconds(10)) async throws {
        process.terminate(SIGKILL, timeout: .seconds(2))
        let arguments = process.arguments
        let deadline = ContinuousClock.now + timeout
        while true {
            let next = try HaulProcess(URL(fileURLWithPath: Self.binaryPath), arguments: arguments)
            processBox.withLock { $0 = next }
            let outcome = try await eventuallyValue(
                "nginx to listen again on 127.0.0.1:\(port)", timeout: ContinuousClock.now.duration(to: deadline)
            ) { () -> Bool? in
                if LoopbackPort.isAccepting(port) { return true }
                return next.exitStatus == nil ? nil : false
            }
            if outcome { return }
            // The port may still be held for a moment by the killed process.
            guard ContinuousClock.now < deadline else { throw NginxFailure(message: "nginx did not restart:\n\(errorLog())") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Stops nginx (SIGTERM, then SIGKILL after three seconds) and waits for it. Idempotent; blocks at most ~4 s.
    public func stop() {
        process.terminate(SIGTERM, timeout: .seconds(3))
    }

    /// The whole nginx.conf for one run.
    static func configuration(
        port: UInt16, prefix: String, root: String, tls: Bool = false, locations: String = "", http: String = ""
    ) -> String {
        let listen = tls
            ? "listen 127.0.0.1:\(port) ssl http2;\n            ssl_certificate \(prefix)/cert.pem;\n            ssl_certificate_key \(prefix)/key.pem;"
            : "listen 127.0.0.1:\(port);"
        let user = geteuid() == 0 ? "user root;\n" : ""
        let tab = "\t"
        let format = ["$request_method", "$request_uri", "$status", "$bytes_sent", "$body_bytes_sent",
                      "$http_range", "$http_if_range", "$connection", "$http_authorization", "$http_cookie",
                      "$remote_user", "$http_via", "$http_proxy_authorization"].joined(separator: tab)
        return """
            \(user)daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log info;
            events { worker_connections 256; }
            http {
                log_format haul '\(format)';
                access_log \(prefix)/access.log haul;
                client_body_temp_path \(prefix)/temp/body;
                proxy_temp_path \(prefix)/temp/proxy;
                fastcgi_temp_path \(prefix)/temp/fastcgi;
                uwsgi_temp_path \(prefix)/temp/uwsgi;
                scgi_temp_path \(prefix)/temp/scgi;
                types { text/plain txt; text/html html; }
                default_type application/octet-stream;
                sendfile on;
                keepalive_timeout 30s;
                map $arg_name $haul_disposition {
                    "" "attachment; filename=\\"$haul_cd_name\\"";
                    default "attachment; filename*=UTF-8''$arg_name";
                }
                server {
                    \(listen)
                    server_name localhost;
                    root \(root);
                    location / { }
                    location ~ ^/cd/(?<haul_cd_name>[^/]+)$ {
                        alias \(root)/$haul_cd_name;
                        add_header Content-Disposition $haul_disposition;
                    }
            \(locations)
                }
            \(http)
            }

            """
    }
}

/// nginx failed to start; carries its error log.
public struct NginxFailure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
