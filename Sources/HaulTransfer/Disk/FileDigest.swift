import CDigest
import HaulCore

/// SHA-256 of a file, through OpenSSL.
enum FileDigest {
    static func sha256Hex(path: String) throws(DownloadError) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let code = CDigest_sha256_file(path, &digest)
        guard code == 0 else { throw FileWriter.error(call: "read", path: path, errno: code) }
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
