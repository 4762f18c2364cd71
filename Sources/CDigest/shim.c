#include "CDigest.h"
#include <openssl/evp.h>

CDigest_Context *CDigest_sha256_new(void) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context != NULL && EVP_DigestInit_ex(context, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    return context;
}

int CDigest_update(CDigest_Context *context, const void *bytes, size_t count) {
    return EVP_DigestUpdate(context, bytes, count);
}

int CDigest_final(CDigest_Context *context, unsigned char *out) {
    unsigned int length = 0;
    return EVP_DigestFinal_ex(context, out, &length);
}

void CDigest_free(CDigest_Context *context) {
    EVP_MD_CTX_free(context);
}
