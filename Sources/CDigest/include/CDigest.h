#ifndef CDIGEST_H
#define CDIGEST_H
// SHA-256 of a file through OpenSSL's EVP interface (assembly-speed even in debug builds).
#include <stddef.h>

// Writes the 32-byte digest of the file at `path` into `out`. Returns 0, or an errno value.
int CDigest_sha256_file(const char *path, unsigned char out[32]);

#endif
