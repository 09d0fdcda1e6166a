package stream

// StandIns exposes a profile's stand-in bodies to the tests.
func StandIns(p *Profile) map[string]string { return p.standIns }
