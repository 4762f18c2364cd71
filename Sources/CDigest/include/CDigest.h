#ifndef CDIGEST_H
#define CDIGEST_H
// OpenSSL's EVP message digests, forwarded one call each (the loop that feeds them is Swift's).
#include <stddef.h>

typedef struct evp_md_ctx_st CDigest_Context;

// A context set up for SHA-256 (EVP_MD_CTX_new + EVP_DigestInit_ex), or NULL.
CDigest_Context *CDigest_sha256_new(void);
// EVP_DigestUpdate: 1 on success.
int CDigest_update(CDigest_Context *context, const void *bytes, size_t count);
// EVP_DigestFinal_ex into `out` (32 bytes for SHA-256): 1 on success.
int CDigest_final(CDigest_Context *context, unsigned char *out);
// EVP_MD_CTX_free.
void CDigest_free(CDigest_Context *context);

#endif
