#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
static int pinned = 0;
int bind(int fd, const struct sockaddr *addr, socklen_t len) {
  static int (*real_bind)(int, const struct sockaddr *, socklen_t);
  if (!real_bind) real_bind = dlsym(RTLD_NEXT, "bind");
  const char *port = getenv("KAFKA_MOCK_PORT");
  if (port && !pinned && addr->sa_family == AF_INET && ((struct sockaddr_in *)addr)->sin_port == 0) {
    struct sockaddr_in fixed = *(const struct sockaddr_in *)addr;
    fixed.sin_port = htons((unsigned short)atoi(port));
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    pinned = 1;
    return real_bind(fd, (struct sockaddr *)&fixed, sizeof fixed);
  }
  return real_bind(fd, addr, len);
}
