// Linux's timerfd, which Swift's Glibc module leaves out.
#include <sys/timerfd.h>
