#include "ioiwari/environment.hpp"

#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

namespace ioiwari {

namespace {

volatile std::sig_atomic_t interrupt_count = 0;

extern "C" void on_interrupt(int) {
  interrupt_count = interrupt_count + 1;
}

}  // namespace

Environment Environment::of_process() {
  Environment environment;
  environment.input_is_terminal = ::isatty(STDIN_FILENO) == 1;
  environment.output_is_terminal = ::isatty(STDOUT_FILENO) == 1;
  environment.error_is_terminal = ::isatty(STDERR_FILENO) == 1;
  const char* no_color = std::getenv("NO_COLOR");
  environment.no_color = no_color != nullptr && no_color[0] != '\0';
  environment.catch_interrupts = [] {
    // Without SA_RESTART a read blocked at the prompt returns with EINTR, so the game can
    // say goodbye instead of dying mid-line.
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    ::sigaction(SIGINT, &action, nullptr);
  };
  environment.interrupted = [] { return interrupt_count > 0; };
  return environment;
}

}  // namespace ioiwari
