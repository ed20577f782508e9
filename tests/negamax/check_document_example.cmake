# Fails unless README.md prints EXAMPLE verbatim, so the example people copy is the one built
# and run by the tests. Run as: cmake -DREADME=... -DEXAMPLE=... -P check_readme_example.cmake
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)
string(FIND "${readme}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README} does not print ${EXAMPLE} as it is: copy it into the README")
endif()
