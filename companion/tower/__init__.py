"""Tower sessions: the simulated tower, toss records, the service that runs tosses and the camera
calibration wizard."""
