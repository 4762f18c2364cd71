#include "CDigest.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <openssl/evp.h>

int CDigest_sha256_file(const char *path, unsigned char out[32]) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return errno;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) { close(fd); EVP_MD_CTX_free(ctx); return ENOMEM; }
    static __thread unsigned char buffer[1 << 18];
    int result = 0;
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { result = errno; break; }
        if (n == 0) break;
        EVP_DigestUpdate(ctx, buffer, (size_t)n);
    }
    unsigned int length = 0;
    if (result == 0) EVP_DigestFinal_ex(ctx, out, &length);
    EVP_MD_CTX_free(ctx);
    close(fd);
    return result;
}
