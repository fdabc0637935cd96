# A lint test whose tool is missing fails, and says what to install.
message(FATAL_ERROR "${MSG} not found: run scripts/deps.sh (make test does)")
