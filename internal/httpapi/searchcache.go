package httpapi

import (
	"container/list"
	"sync"

	"members/internal/booking"
)

// searchCache keeps the encoded answers of recent booking searches, per
// instance, keyed by member, language and query string, least recently
// used out first within a byte budget. An answer is only ever served after
// checking, on that request, the member's bookings version in the database
// and the answer's time limit (booking.SearchResult.Holds): a change to a
// booking made on any instance shows at once on every other, and nothing
// is served that a fresh search would not give. A hand-written LRU, not a
// library: the bound has to be in bytes (answers range from a few hundred
// bytes to tens of KiB), which the common Go LRU packages do not offer,
// and it is forty lines.
type searchCache struct {
	mu     sync.Mutex
	budget int
	used   int
	order  *list.List // of *searchEntry, most recent first
	byKey  map[string]*list.Element
}

type searchEntry struct {
	key  string
	res  booking.SearchResult // Version and ValidUntil (the views are in body)
	body []byte
}

func (e *searchEntry) size() int { return len(e.key) + len(e.body) + 256 }

// searchCacheBudget bounds the memory of one instance's cached answers.
const searchCacheBudget = 8 << 20

func newSearchCache(budget int) *searchCache {
	return &searchCache{budget: budget, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the entry of key, if any (whether it still holds is the
// caller's check).
func (c *searchCache) get(key string) (*searchEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	e, _ := el.Value.(*searchEntry)
	return e, true
}

// put stores an entry (replacing one of the same key), then drops the
// least recently used ones beyond the budget. An entry larger than an
// eighth of the budget is not kept.
func (c *searchCache) put(e *searchEntry) {
	if e.size() > c.budget/8 {
		c.remove(e.key)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[e.key]; ok {
		c.drop(el)
	}
	c.byKey[e.key] = c.order.PushFront(e)
	c.used += e.size()
	for c.used > c.budget {
		c.drop(c.order.Back())
	}
}

func (c *searchCache) remove(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.drop(el)
	}
}

// drop removes el; c.mu is held.
func (c *searchCache) drop(el *list.Element) {
	e, _ := c.order.Remove(el).(*searchEntry)
	delete(c.byKey, e.key)
	c.used -= e.size()
}
