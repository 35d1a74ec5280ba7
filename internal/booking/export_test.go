package booking

// ValidUntil exposes validUntil to the tests.
var ValidUntil = validUntil
