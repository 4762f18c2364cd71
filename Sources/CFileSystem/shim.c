#define _GNU_SOURCE
#include "CFileSystem.h"
#include <stdio.h>
#include <fcntl.h>
#include <sys/xattr.h>

int CFileSystem_rename_noreplace(int from_dir, const char *from, int to_dir, const char *to) {
    return renameat2(from_dir, from, to_dir, to, RENAME_NOREPLACE);
}

int CFileSystem_set_attribute(int fd, const char *name, const void *value, size_t size) {
    return fsetxattr(fd, name, value, size, 0);
}

ssize_t CFileSystem_get_attribute(int fd, const char *name, void *value, size_t size) {
    return fgetxattr(fd, name, value, size);
}
