// What a C++ throw becomes in the page's module. Debian's libc++ for wasm32-wasi is built without
// exceptions, and clang lowers a throw for wasm32 to these two calls with no unwinding: a catch
// is never reached. The core's errors stay what they are (the same throws as on the command
// line, the same messages); in the page, an error ends the call that met it. The message goes to
// the page (its import ioiwari.stopped), which shows it in one line, and the call traps.
//
// Every exception the core throws derives from std::exception alone (TableError,
// std::logic_error, std::invalid_argument, std::bad_alloc...), so the object thrown is the
// std::exception it starts with. libc++ itself, built without exceptions, aborts where it would
// throw: the page then reports the trap without a message.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <typeinfo>

extern "C" {

__attribute__((import_module("ioiwari"), import_name("stopped"))) void stopped(const char* what,
                                                                               std::size_t length);

void* __cxa_allocate_exception(std::size_t size) noexcept {
  void* object = std::malloc(size);
  if (object == nullptr) __builtin_trap();
  return object;
}

[[noreturn]] void __cxa_throw(void* thrown, std::type_info*, void (*)(void*)) {
  const char* what = static_cast<const std::exception*>(thrown)->what();
  stopped(what, std::strlen(what));
  __builtin_trap();
}

}  // extern "C"
