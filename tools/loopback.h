// A TCP connection to QEMU's end of a guest serial line on localhost
// (tools/loopback.c), for the host tools serialcheck and rspfuzz.
#ifndef TASKLAB_LOOPBACK_H
#define TASKLAB_LOOPBACK_H
int loopback_connect(int port, int secs);   // the socket, or -1
#endif
