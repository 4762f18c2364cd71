#ifndef CNCURSESW_H
#define CNCURSESW_H
// Wide-character ncurses, plus getters for what Swift cannot import (globals, macros).
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <wchar.h>

WINDOW *CNcursesw_stdscr(void);
attr_t CNcursesw_attr_bold(void);
attr_t CNcursesw_attr_reverse(void);
attr_t CNcursesw_attr_dim(void);
attr_t CNcursesw_attr_underline(void);
attr_t CNcursesw_color_pair(int pair);
// newterm(NULL, stdout, stdin): Swift 6 cannot touch the stdout/stdin globals. NULL when TERM is unusable.
SCREEN *CNcursesw_newterm_stdio(void);
// The COLORS and COLOR_PAIRS globals (valid after start_color).
int CNcursesw_colors(void);
int CNcursesw_color_pairs(void);
// Display width of one character in the current locale (-1 for non-printable).
int CNcursesw_wcwidth(wchar_t character);
// Installs handlers for crash signals that restore the terminal, then run the handler that was there before.
void CNcursesw_install_crash_restore(void);
// A descriptor the crash handler puts back on fd 2 before chaining (stderr is held while curses owns the
// screen, so a crash report must reach the real stderr); -1 for none.
void CNcursesw_set_crash_stderr(int descriptor);

#endif
