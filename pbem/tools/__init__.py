"""The tools, apart from the server: self-play, balance, the demo by mail, the
load test, and the harness that drives a real server for them and the tests."""
