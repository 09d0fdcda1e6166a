package metrics

import "github.com/prometheus/client_golang/prometheus"

// Gatherer gives the tests the registry, for prometheus/testutil.
func (m *Metrics) Gatherer() prometheus.Gatherer { return m.reg }
