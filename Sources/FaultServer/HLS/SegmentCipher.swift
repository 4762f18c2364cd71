import CCipher

/// AES-128-CBC encryption with PKCS#7 padding through OpenSSL's EVP (the `CCipher` shim): what a packager does
/// to the segments of an HLS stream with `METHOD=AES-128`.
public enum SegmentCipher {
    /// The ciphertext of `clear` (padded to whole blocks; at least one padding byte). `key` and `iv` are 16 bytes.
    public static func encrypt(_ clear: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && iv.count == 16, "AES-128 takes a 16-byte key and IV")
        guard let context = key.withUnsafeBufferPointer({ keyBytes in
            iv.withUnsafeBufferPointer { CCipher_aes128cbc_encrypt_new(keyBytes.baseAddress, $0.baseAddress) }
        }) else { preconditionFailure("OpenSSL could not set up AES-128-CBC") }
        defer { CCipher_free(context) }
        var output = [UInt8](repeating: 0, count: clear.count + 16)
        var written: Int32 = 0
        var last: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { out in
            clear.withUnsafeBufferPointer { input in
                CCipher_encrypt_update(context, input.baseAddress, input.count, out.baseAddress, &written) == 1
                    && CCipher_encrypt_final(context, out.baseAddress! + Int(written), &last) == 1
            }
        }
        precondition(ok, "AES-128-CBC encryption failed")
        output.removeLast(output.count - Int(written + last))
        return output
    }
}
