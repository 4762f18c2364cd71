#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H
// Linux file calls that glibc declares only under _GNU_SOURCE, forwarded one call each.
#include <stddef.h>
#include <sys/types.h>

// renameat2 with RENAME_NOREPLACE: 0 on success, else -1 with errno (EEXIST: the target is taken;
// EINVAL or ENOSYS: the filesystem or kernel cannot do it).
int CFileSystem_rename_noreplace(int from_dir, const char *from, int to_dir, const char *to);
// fsetxattr: 0 on success, else -1 with errno (ENOTSUP: the filesystem keeps no extended attributes).
int CFileSystem_set_attribute(int fd, const char *name, const void *value, size_t size);
// fgetxattr: the value's length, else -1 with errno (ENODATA: no such attribute).
ssize_t CFileSystem_get_attribute(int fd, const char *name, void *value, size_t size);

#endif
