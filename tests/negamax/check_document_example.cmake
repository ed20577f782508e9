# Fails unless DOCUMENT (docs/library.md) prints EXAMPLE verbatim, so the example people copy is
# the one built and run by the tests. Run as:
#   cmake -DDOCUMENT=... -DEXAMPLE=... -P check_document_example.cmake
file(READ "${DOCUMENT}" readme)
file(READ "${EXAMPLE}" example)
string(FIND "${readme}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOCUMENT} does not print ${EXAMPLE} as it is: copy it there")
endif()
