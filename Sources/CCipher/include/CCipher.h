#ifndef CCIPHER_H
#define CCIPHER_H
// OpenSSL's EVP AES-128-CBC with PKCS#7 padding, forwarded one call each (the loop is Swift's). haul decrypts;
// the test server encrypts (the `_encrypt` calls).
#include <stddef.h>

typedef struct evp_cipher_ctx_st CCipher_Context;

// A context set up to decrypt AES-128-CBC with `key` and `iv` (16 bytes each), or NULL.
CCipher_Context *CCipher_aes128cbc_decrypt_new(const unsigned char *key, const unsigned char *iv);
// EVP_DecryptUpdate: writes up to count + 16 bytes to `out` and their number to `written`; 1 on success.
int CCipher_update(CCipher_Context *context, const void *bytes, size_t count, unsigned char *out, int *written);
// EVP_DecryptFinal_ex: the last block without its padding (up to 16 bytes); 0 when the padding is bad.
int CCipher_final(CCipher_Context *context, unsigned char *out, int *written);
// A context set up to encrypt AES-128-CBC with `key` and `iv` (16 bytes each), or NULL (the fault server's HLS streams).
CCipher_Context *CCipher_aes128cbc_encrypt_new(const unsigned char *key, const unsigned char *iv);
// EVP_EncryptUpdate: writes up to count + 16 bytes to `out` and their number to `written`; 1 on success.
int CCipher_encrypt_update(CCipher_Context *context, const void *bytes, size_t count, unsigned char *out, int *written);
// EVP_EncryptFinal_ex: the last block with its padding (16 bytes); 1 on success.
int CCipher_encrypt_final(CCipher_Context *context, unsigned char *out, int *written);
// EVP_CIPHER_CTX_free.
void CCipher_free(CCipher_Context *context);

#endif
