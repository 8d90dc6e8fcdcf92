package auth

import (
	"errors"
	"runtime"

	"golang.org/x/crypto/bcrypt"

	"github.com/squarely/squarely/internal/store"
)

// DefaultPasswordCost is the bcrypt cost of stored passwords (about a
// quarter of a second per hash on a server core).
const DefaultPasswordCost = 12

// MaxPasswordBytes is bcrypt's input limit. Longer passwords are refused
// rather than silently truncated or pre-hashed: the limit is generous and
// an honest error beats a second hashing scheme.
const MaxPasswordBytes = 72

// ErrPasswordTooLong is returned by HashPassword for passwords over MaxPasswordBytes.
var ErrPasswordTooLong = errors.New("auth: password longer than 72 bytes")

func (s *Service) cost() int {
	if s.PasswordCost == 0 {
		return DefaultPasswordCost
	}
	return s.PasswordCost
}

// bcryptSlots bounds the bcrypt computations running at once in the
// process to the cores there are: more only queue inside the scheduler and
// starve every other request of CPU. Callers also cap them per client
// address, so one client cannot hold every slot.
var bcryptSlots = make(chan struct{}, runtime.GOMAXPROCS(0))

// bcryptRun runs one bcrypt computation in a slot and reports it to Hashed.
func (s *Service) bcryptRun(fn func()) {
	bcryptSlots <- struct{}{}
	defer func() { <-bcryptSlots }()
	fn()
	if s.Hashed != nil {
		s.Hashed()
	}
}

// HashPassword returns the bcrypt hash to store for password.
func (s *Service) HashPassword(password string) (string, error) {
	if len(password) > MaxPasswordBytes {
		return "", ErrPasswordTooLong
	}
	var (
		h   []byte
		err error
	)
	s.bcryptRun(func() { h, err = bcrypt.GenerateFromPassword([]byte(password), s.cost()) })
	return string(h), err
}

// CheckPassword reports whether password signs u in. It refuses unknown
// (nil), deleted and password-less users, and takes as long for them as for
// a wrong password, so response times do not reveal which accounts exist.
func (s *Service) CheckPassword(u *store.User, password string) bool {
	if u == nil || u.IsDeleted || u.PasswordHash == "" {
		s.dummyOnce.Do(func() {
			s.dummyHash, _ = bcrypt.GenerateFromPassword([]byte("squarely dummy password"), s.cost())
		})
		s.bcryptRun(func() { bcrypt.CompareHashAndPassword(s.dummyHash, []byte(password)) })
		return false
	}
	var err error
	s.bcryptRun(func() { err = bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(password)) })
	return err == nil
}
