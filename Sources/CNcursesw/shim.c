#define _XOPEN_SOURCE 700
#include "CNcursesw.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

WINDOW *CNcursesw_stdscr(void) { return stdscr; }
attr_t CNcursesw_attr_bold(void) { return A_BOLD; }
attr_t CNcursesw_attr_reverse(void) { return A_REVERSE; }
attr_t CNcursesw_attr_dim(void) { return A_DIM; }
attr_t CNcursesw_attr_underline(void) { return A_UNDERLINE; }
attr_t CNcursesw_color_pair(int pair) { return COLOR_PAIR(pair); }
SCREEN *CNcursesw_newterm_stdio(void) { return newterm(NULL, stdout, stdin); }
int CNcursesw_colors(void) { return COLORS; }
int CNcursesw_color_pairs(void) { return COLOR_PAIRS; }
int CNcursesw_wcwidth(wchar_t character) { return wcwidth(character); }

static const int crash_signals[] = { SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE };
static struct sigaction previous_actions[sizeof crash_signals / sizeof crash_signals[0]];

static volatile sig_atomic_t crash_stderr = -1;

void CNcursesw_set_crash_stderr(int descriptor) { crash_stderr = descriptor; }

/* Mouse reports and bracketed paste off (no-ops when they were not on), so a crash leaves no escape codes to the shell. */
static const char modes_off[] = "\033[?1006l\033[?1000l\033[?2004l";

static void restore_then_chain(int sig, siginfo_t *info, void *context) {
    ssize_t written = write(STDOUT_FILENO, modes_off, sizeof modes_off - 1);
    (void)written;
    endwin();
    if (crash_stderr >= 0) dup2(crash_stderr, 2);
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        if (crash_signals[i] != sig) continue;
        sigaction(sig, &previous_actions[i], NULL);
        if (previous_actions[i].sa_flags & SA_SIGINFO) {
            if (previous_actions[i].sa_sigaction) { previous_actions[i].sa_sigaction(sig, info, context); return; }
        } else if (previous_actions[i].sa_handler != SIG_DFL && previous_actions[i].sa_handler != SIG_IGN) {
            previous_actions[i].sa_handler(sig);
            return;
        }
    }
    raise(sig);
}

void CNcursesw_install_crash_restore(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = restore_then_chain;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
        sigaction(crash_signals[i], &action, &previous_actions[i]);
    }
}
