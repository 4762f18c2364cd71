#include "CCipher.h"
#include <limits.h>
#include <openssl/evp.h>

CCipher_Context *CCipher_aes128cbc_decrypt_new(const unsigned char *key, const unsigned char *iv) {
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context != NULL && EVP_DecryptInit_ex(context, EVP_aes_128_cbc(), NULL, key, iv) != 1) {
        EVP_CIPHER_CTX_free(context);
        return NULL;
    }
    return context;
}

int CCipher_update(CCipher_Context *context, const void *bytes, size_t count, unsigned char *out, int *written) {
    if (count > INT_MAX - 16) return 0;
    return EVP_DecryptUpdate(context, out, written, bytes, (int)count);
}

int CCipher_final(CCipher_Context *context, unsigned char *out, int *written) {
    return EVP_DecryptFinal_ex(context, out, written);
}

CCipher_Context *CCipher_aes128cbc_encrypt_new(const unsigned char *key, const unsigned char *iv) {
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context != NULL && EVP_EncryptInit_ex(context, EVP_aes_128_cbc(), NULL, key, iv) != 1) {
        EVP_CIPHER_CTX_free(context);
        return NULL;
    }
    return context;
}

int CCipher_encrypt_update(CCipher_Context *context, const void *bytes, size_t count, unsigned char *out, int *written) {
    if (count > INT_MAX - 16) return 0;
    return EVP_EncryptUpdate(context, out, written, bytes, (int)count);
}

int CCipher_encrypt_final(CCipher_Context *context, unsigned char *out, int *written) {
    return EVP_EncryptFinal_ex(context, out, written);
}

void CCipher_free(CCipher_Context *context) {
    EVP_CIPHER_CTX_free(context);
}
