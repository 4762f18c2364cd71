#ifndef CCIPHER_H
#define CCIPHER_H
// OpenSSL's EVP AES-128-CBC decryption with PKCS#7 padding, forwarded one call each (the loop is Swift's).
#include <stddef.h>

typedef struct evp_cipher_ctx_st CCipher_Context;

// A context set up to decrypt AES-128-CBC with `key` and `iv` (16 bytes each), or NULL.
CCipher_Context *CCipher_aes128cbc_decrypt_new(const unsigned char *key, const unsigned char *iv);
// EVP_DecryptUpdate: writes up to count + 16 bytes to `out` and their number to `written`; 1 on success.
int CCipher_update(CCipher_Context *context, const void *bytes, size_t count, unsigned char *out, int *written);
// EVP_DecryptFinal_ex: the last block without its padding (up to 16 bytes); 0 when the padding is bad.
int CCipher_final(CCipher_Context *context, unsigned char *out, int *written);
// EVP_CIPHER_CTX_free.
void CCipher_free(CCipher_Context *context);

#endif
