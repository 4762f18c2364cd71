import CCipher
import HaulCore

/// AES-128-CBC with PKCS#7 padding (HLS `METHOD=AES-128`, RFC 8216 §5.2): a whole segment in, its clear bytes out.
enum SegmentDecryptor {
    enum Failure: Error, Equatable {
        /// The key is not 16 bytes.
        case badKey(bytes: Int)
        /// The ciphertext is not whole blocks, or its padding is wrong: a wrong key, a wrong IV's last block,
        /// or a cut segment.
        case badPadding
        /// OpenSSL could not set up the cipher.
        case unavailable
    }

    static func decrypt(_ bytes: [UInt8], key: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 16, iv.count == 16 else { throw .badKey(bytes: key.count) }
        guard !bytes.isEmpty, bytes.count % 16 == 0 else { throw .badPadding }
        guard let context = key.withUnsafeBufferPointer({ keyBytes in
            iv.withUnsafeBufferPointer { ivBytes in CCipher_aes128cbc_decrypt_new(keyBytes.baseAddress, ivBytes.baseAddress) }
        }) else { throw .unavailable }
        defer { CCipher_free(context) }
        var output = [UInt8](repeating: 0, count: bytes.count + 16)
        var written: Int32 = 0
        var last: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                CCipher_update(context, input.baseAddress, input.count, out.baseAddress, &written) == 1
                    && CCipher_final(context, out.baseAddress! + Int(written), &last) == 1
            }
        }
        guard ok else { throw .badPadding }
        output.removeLast(output.count - Int(written + last))
        return output
    }
}
