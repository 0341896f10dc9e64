package guard

import (
	"net"
	"syscall"
)

// peerCred is the uid and pid of the process at the other end of c (SO_PEERCRED).
func peerCred(c *net.UnixConn) (uid, pid int, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, 0, err
	}
	uid = -1
	var cerr error
	err = raw.Control(func(fd uintptr) {
		cred, e := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
		if e != nil {
			cerr = e
			return
		}
		uid, pid = int(cred.Uid), int(cred.Pid)
	})
	if err != nil {
		return -1, 0, err
	}
	return uid, pid, cerr
}
