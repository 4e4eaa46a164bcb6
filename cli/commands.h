/* One entry point per subcommand (cmd_*.c), called by main.c with the
 * subcommand's own argv (argv[0] is the subcommand name). Each returns the
 * process exit code (util.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef LIFEHEAP_COMMANDS_H
#define LIFEHEAP_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_sql(int argc, char **argv);

/* The help texts, also printed by `lifeheap help COMMAND`. */
extern const char run_usage[];
extern const char report_usage[];
extern const char diff_usage[];
extern const char check_usage[];
extern const char view_usage[];
extern const char sql_usage[];

#endif
