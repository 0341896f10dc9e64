package guard

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Session is a console attached to its account's guard: the connection, a heartbeat every
// beat (each answered with the guard's status, kept as Last and handed to the session's
// listener), and the console's requests between them. The guard goes on when the session
// detaches, or when the console dies without detaching.
type Session struct {
	*Conn
	last    atomic.Pointer[Status]
	gone    atomic.Pointer[error]
	stop    chan struct{}
	done    chan struct{}
	detach  sync.Once
	Account string // the guard's account
}

// Open attaches a console (who) for account to the guard on path and beats every beat until
// Detach; on is told every status and, once, the error that ended the session (nil on Detach).
func Open(ctx context.Context, path, account, who string, beat time.Duration, on func(Status, error)) (*Session, error) {
	c, st, err := Attach(ctx, path, account, who)
	if err != nil {
		return nil, err
	}
	s := &Session{Conn: c, stop: make(chan struct{}), done: make(chan struct{}), Account: st.Account}
	s.last.Store(&st)
	go s.loop(beat, on)
	return s, nil
}

func (s *Session) loop(beat time.Duration, on func(Status, error)) {
	defer close(s.done)
	t := time.NewTicker(beat)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(beat, 5*time.Second))
		st, err := s.Beat(ctx)
		cancel()
		select {
		case <-s.stop:
			return
		default:
		}
		if err != nil {
			s.gone.Store(&err)
			if on != nil {
				on(Status{}, err)
			}
			return
		}
		s.last.Store(&st)
		if on != nil {
			on(st, nil)
		}
	}
}

// Last is the guard's last status, and the error that ended the session (nil while attached).
func (s *Session) Last() (Status, error) {
	var err error
	if e := s.gone.Load(); e != nil {
		err = *e
	}
	return *s.last.Load(), err
}

// Detach stops the heartbeats and closes the connection; the guard goes on.
func (s *Session) Detach() {
	s.detach.Do(func() {
		close(s.stop)
		_ = s.Close()
		<-s.done
	})
}
