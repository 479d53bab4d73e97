"""Tower sessions: the simulated tower, toss records and the service that runs tosses."""
