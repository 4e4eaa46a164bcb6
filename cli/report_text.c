/* `lifeheap report --format text`: the most severe finding first (its kind,
 * site, sentence and key evidence, labelled from docs/evidence-labels.json
 * as the viewer's headline), the run in a few lines, the top sites in a
 * table of the main metrics, then each top site with its notes, every
 * figure and its stack, and the findings with their labelled evidence.
 *
 * The report fits REPORT_WIDTH columns: the table's site names are cut to
 * the room left (each site's section below names it in full), and any
 * longer line (a sentence, a deep stack frame) is wrapped at a space, its
 * continuation indented under it (print_wrapped).
 *
 * Written for people, so it trims what --format json keeps exact: a site's
 * stack is shown from its name frame outwards (the allocator's and the
 * libraries' frames before it are counted, not listed), stops at main or a
 * thread's own function (what lies below is the C library's or the Rust
 * runtime's start-up code) or after STACK_CALLERS callers, and long generic
 * names are shortened (shorten_name in util.c). A site is named by the
 * label the tool gave it (unique in the profile); older profiles without
 * labels get the tool's former rule: two top sites with the same name frame
 * are told apart by the first caller where their stacks part ("via ...").
 * Under its name, a site gets the notes the tool judged and carried in the
 * profile (sites[].notes: realloc regrowth, unused capacity, untouched
 * bytes, tiny blocks), the lines the tool's summary prints.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "evidence_labels.h"
#include "report_output.h"
#include "util.h"

struct column {
    const char *metric;
    const char *heading;
};

/* The metrics a reader compares across sites first (the viewer's Main
 * columns); each site's section below gives every other figure. */
static const struct column columns[] = {
    {"peak_bytes", "at peak"},
    {"end_bytes", "at exit"},
    {"total_bytes", "total"},
    {"total_blocks", "blocks"},
    {"avg_lifetime", "avg life"},
    {"never_read_bytes", "never read"},
};
enum { COLUMN_COUNT = sizeof columns / sizeof columns[0], COLUMN_WIDTH = 10 };

/* The widest line the report writes, in characters; the site id column. */
enum { SITE_WIDTH = 5 };

/* Callers shown after a site's name frame; the rest are counted. */
enum { STACK_CALLERS = 5 };
/* Function names longer than this are shortened (shorten_name). */
enum { NAME_LIMIT = 100 };

/* "block" or "blocks" for a count. */
static const char *blocks(uint64_t count)
{
    return count == 1 ? "block" : "blocks";
}

/*--- Names and stacks ----------------------------------------------------*/

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* True when two frames print the same (format_frame): two code addresses
 * on one source line, or one function inlined at two places, read alike. */
static bool frames_read_alike(const struct frame *a, const struct frame *b)
{
    if (!same_text(a->function, b->function) || !same_text(a->file, b->file))
        return false;
    if (a->file)
        return a->line == b->line;
    if (!same_text(a->object, b->object))
        return false;
    return a->object || same_text(a->address, b->address);
}

static const struct frame *stack_frame(const struct profile *profile,
                                       const struct site *site, size_t k)
{
    return &profile->frames[site->stack[k]];
}

/* A frame as the text report shows it: its function name shortened. */
static void format_frame_shortened(const struct frame *frame, char *buffer,
                                   size_t size)
{
    struct frame shown = *frame;
    char function[NAME_LIMIT + 1];
    if (frame->function) {
        shorten_name(frame->function, NAME_LIMIT, function, sizeof function);
        shown.function = function;
    }
    format_frame(&shown, buffer, size);
}

/* The site's name frame, and when another top site has the same one (one
 * function called from two places) the first caller where their stacks
 * part ("via ..."); when they part only inside the allocation (a map node
 * and its key made by one line), the frame that called the allocator
 * ("allocated by ..."). For profiles without labels: the rule the tool's
 * summary followed before it labelled sites, over the report's top sites. */
static void describe_site(const struct profile *profile,
                          const struct site *site, const size_t *order,
                          size_t count, char *buffer, size_t size)
{
    /* The tool's label (unique among all the sites, the text its summary
     * and the viewer show); profiles written before labels get the rule
     * below. */
    if (site->label) {
        snprintf(buffer, size, "%s", site->label);
        return;
    }
    const struct frame *name = site_name_frame(profile, site);
    if (!name) {
        snprintf(buffer, size, "[no stack]");
        return;
    }
    format_frame_shortened(name, buffer, size);
    size_t split = 0;
    bool twin_same_callers = false;
    for (size_t row = 0; row < count; row++) {
        const struct site *other = &profile->sites[order[row]];
        if (other == site || other->stack_len == 0 ||
            !frames_read_alike(site_name_frame(profile, other), name))
            continue;
        /* Callers compared at the same distance from each name frame. */
        size_t d = 1;
        while (site->name_frame + d < site->stack_len &&
               other->name_frame + d < other->stack_len &&
               frames_read_alike(
                   stack_frame(profile, site, site->name_frame + d),
                   stack_frame(profile, other, other->name_frame + d)))
            d++;
        size_t k = site->name_frame + d;
        if (k == site->stack_len && other->name_frame + d == other->stack_len)
            twin_same_callers = true;
        else if (k > split)
            split = k;
    }
    size_t used = strlen(buffer);
    char text[1024];
    if (twin_same_callers && split == 0) {
        /* The innermost named frame: "allocated by ???" would say nothing. */
        for (size_t k = 0; k < site->name_frame; k++) {
            const struct frame *frame = stack_frame(profile, site, k);
            if (frame->function) {
                format_frame_shortened(frame, text, sizeof text);
                snprintf(buffer + used, size - used, ", allocated by %s", text);
                break;
            }
        }
    }
    if (split > 0 && split < site->stack_len) {
        /* "via ??? (in lib.so)" or "via (below main)" says little: the
         * first named frame from there on, or nothing. */
        for (size_t k = split; k < site->stack_len; k++) {
            const struct frame *frame = stack_frame(profile, site, k);
            if (frame->function && strcmp(frame->function, "(below main)")) {
                format_frame_shortened(frame, text, sizeof text);
                snprintf(buffer + used, size - used, " via %s", text);
                break;
            }
        }
    }
}

static bool ends_with(const char *text, const char *suffix)
{
    size_t length = strlen(text), suffix_length = strlen(suffix);
    return length >= suffix_length &&
           strcmp(text + length - suffix_length, suffix) == 0;
}

/* True for the frame through which a thread's start-up code calls the
 * thread's own function: glibc's start_thread, Rust's
 * __rust_begin_short_backtrace (for the main thread and spawned ones). */
static bool is_thread_entry(const struct frame *frame)
{
    if (!frame->function)
        return false;
    if (strstr(frame->function, "__rust_begin_short_backtrace"))
        return true;
    return strcmp(frame->function, "start_thread") == 0 && frame->object &&
           strstr(frame->object, "libc");
}

/* The outermost frame of the site's stack worth showing: main, or the
 * function a thread was started with. What calls them is start-up code,
 * the same in every program: the C library's (__libc_start_call_main,
 * "(below main)" with --show-below-main=yes, start_thread, clone3) or, for
 * Rust, the runtime's (FnOnce::call_once, __rust_begin_short_backtrace,
 * std::rt::lang_start and a dozen inlined catch_unwind closures, then the C
 * main). A Rust `crate::main` counts as main only when that runtime calls
 * it, so a module's own `main` function keeps its callers. The last frame
 * when there is none of these (a stack cut short by --num-callers). */
static size_t outermost_shown_frame(const struct profile *profile,
                                    const struct site *site)
{
    for (size_t k = site->name_frame; k < site->stack_len; k++) {
        const struct frame *frame = stack_frame(profile, site, k);
        if (k > site->name_frame && is_thread_entry(frame))
            return k - 1;
        if (!frame->function)
            continue;
        if (strcmp(frame->function, "main") == 0)
            return k;
        if (!ends_with(frame->function, "::main"))
            continue;
        for (size_t caller = k + 1; caller < site->stack_len; caller++) {
            const char *runtime = stack_frame(profile, site, caller)->function;
            if (runtime && (strstr(runtime, "__rust_begin_short_backtrace") ||
                            strncmp(runtime, "std::rt::lang_start", 19) == 0))
                return k;
        }
    }
    return site->stack_len - 1;
}

/* The stack from the name frame outwards: the frames before it (the
 * allocator's and the libraries': RawVec, iterators, operator new) are
 * counted, except a single one, which takes no more room than the count;
 * then at most STACK_CALLERS callers, up to main. */
static void print_stack(FILE *out, const struct profile *profile,
                        const struct site *site)
{
    if (site->stack_len == 0) {
        fprintf(out, "  [no stack]\n");
        return;
    }
    size_t first = site->name_frame == 1 ? 0 : site->name_frame;
    size_t outermost = outermost_shown_frame(profile, site);
    size_t last = outermost;
    if (last > site->name_frame + STACK_CALLERS)
        last = site->name_frame + STACK_CALLERS;
    if (first > 0) {
        /* A stripped object's frames have no name (the site is named by
         * its nearest named caller): say so rather than call them the
         * allocator's. */
        bool unnamed = false;
        for (size_t k = 0; k < first; k++)
            unnamed = unnamed || !stack_frame(profile, site, k)->function;
        fprintf(out, "  ... %zu allocator%s frames ...\n", first,
                unnamed ? ", library and unnamed" : " and library");
    }
    for (size_t k = first; k <= last; k++) {
        char text[1024];
        const struct frame *frame = stack_frame(profile, site, k);
        format_frame_shortened(frame, text, sizeof text);
        fprintf(out, "  %s ", k == 0 ? "at" : "by");
        print_text(out, text);
        if (frame->inlined)
            fprintf(out, " [inlined]");
        fputc('\n', out);
    }
    if (last < outermost)
        fprintf(out, "  ... %zu more caller%s ...\n", outermost - last,
                outermost - last == 1 ? "" : "s");
}

/*--- Notes ---------------------------------------------------------------
 *
 * The lines the tool judged worth saying under a site (sites[].notes: a
 * buffer regrown by realloc, capacity never written, blocks smaller than
 * the allocator's chunk), printed as the tool's summary prints them. The
 * rules and thresholds live in the tool (tool/lh_notes.c). */

static void print_notes(FILE *out, const struct site *site)
{
    for (size_t i = 0; i < site->note_count; i++) {
        fprintf(out, "  note: ");
        print_text(out, site->notes[i].text);
        fputc('\n', out);
    }
}

static void print_exit(FILE *out, const struct profile *profile)
{
    switch (profile->exit_status) {
    case EXIT_STATUS_EXITED:
        fprintf(out, "exited with code %lld", (long long)profile->exit_code);
        break;
    case EXIT_STATUS_SIGNAL:
        fprintf(out, "killed by ");
        if (profile->exit_signal_name)
            print_text(out, profile->exit_signal_name);
        else
            fprintf(out, "a signal");
        if (profile->exit_code >= 0)
            fprintf(out, " (signal %lld)", (long long)profile->exit_code);
        break;
    case EXIT_STATUS_RUNNING:
        if (profile->dump_reason && strcmp(profile->dump_reason, "exec") == 0)
            fprintf(out, "exec'd another program, which ran without lifeheap "
                         "(partial profile, up to the exec)");
        else
            fprintf(out, "still running (partial profile)");
        break;
    }
}

static void print_header(FILE *out, const struct profile *profile,
                         const struct metric *sort, size_t shown)
{
    char a[32], b[32], c[32];
    fprintf(out, "command   ");
    for (size_t i = 0; i < profile->command_len; i++) {
        fputc(' ', out);
        print_text(out, profile->command[i]);
    }
    fprintf(out, "\nexit       ");
    print_exit(out, profile);
    fprintf(out, "\nduration   %s instructions, %s thread%s\n",
            count_text(profile->duration).text,
            count_text(profile->threads).text,
            profile->threads == 1 ? "" : "s");
    format_size((double)profile->peak_bytes, a, sizeof a);
    format_percent((double)profile->peak_time, (double)profile->duration, b,
                   sizeof b);
    fprintf(out, "peak       %s in %s %s at %s of the run\n", a,
            count_text(profile->peak_blocks).text,
            blocks(profile->peak_blocks), b);
    format_size((double)profile->exit_bytes, a, sizeof a);
    fprintf(out, "at exit    %s in %s %s\n", a,
            count_text(profile->exit_blocks).text,
            blocks(profile->exit_blocks));
    format_size((double)profile->total_bytes, a, sizeof a);
    format_size((double)profile->total_realloc_bytes_copied, b, sizeof b);
    fprintf(out, "totals     %s in %s %s, %s frees, %s reallocs "
                 "(%s copied)\n",
            a, count_text(profile->total_blocks).text,
            blocks(profile->total_blocks),
            count_text(profile->total_frees).text,
            count_text(profile->total_reallocs).text, b);
    format_size((double)profile->total_bytes_read, a, sizeof a);
    format_size((double)profile->total_bytes_written, c, sizeof c);
    fprintf(out, "access     %s read, %s written\n", a, c);
    if (profile->total_invalid_frees || profile->total_invalid_reallocs)
        fprintf(out, "invalid    %s %s, %s %s of pointers that were not "
                     "live heap blocks (ignored)\n",
                count_text(profile->total_invalid_frees).text,
                profile->total_invalid_frees == 1 ? "free" : "frees",
                count_text(profile->total_invalid_reallocs).text,
                profile->total_invalid_reallocs == 1 ? "realloc" : "reallocs");
    fprintf(out, "sites      %s (top %s by %s)\n",
            count_text(profile->site_count).text, count_text(shown).text,
            sort->name);
    fprintf(out, "findings   %s\n", count_text(profile->finding_count).text);
}

/* Where the table's name column starts: the site id, each metric, the
 * %peak column and the two spaces before the name. */
enum { TABLE_NAME_COLUMN = SITE_WIDTH + COLUMN_COUNT * (COLUMN_WIDTH + 1) + 7 + 2 };

/* Characters (not bytes) of UTF-8 text. */
static size_t display_length(const char *text, size_t bytes)
{
    size_t characters = 0;
    for (size_t i = 0; i < bytes; i++)
        characters += ((unsigned char)text[i] & 0xC0) != 0x80;
    return characters;
}

/* Writes text (as print_text) cut to `room` characters, the last one "…"
 * when it was longer. */
static void print_cut(FILE *out, const char *text, size_t room)
{
    size_t length = strlen(text);
    if (display_length(text, length) <= room || room < 2) {
        print_text(out, text);
        return;
    }
    char cut[2048];
    size_t bytes = 0, characters = 0;
    while (text[bytes] && bytes + 4 < sizeof cut) {
        if (((unsigned char)text[bytes] & 0xC0) != 0x80 &&
            characters++ == room - 1)
            break;
        bytes++;
    }
    memcpy(cut, text, bytes);
    cut[bytes] = '\0';
    print_text(out, cut);
    fputs("\xe2\x80\xa6", out);   /* … */
}

static void print_table(FILE *out, const struct profile *profile,
                        const size_t *order, size_t count)
{
    const struct metric *column_metrics[COLUMN_COUNT];
    for (size_t c = 0; c < COLUMN_COUNT; c++)
        column_metrics[c] = metric_find(columns[c].metric);

    fprintf(out, "%*s", SITE_WIDTH, "site");
    for (size_t c = 0; c < COLUMN_COUNT; c++) {
        fprintf(out, " %*s", COLUMN_WIDTH, columns[c].heading);
        if (c == 0)
            fprintf(out, " %6s", "%peak");
    }
    fprintf(out, "  name\n");

    for (size_t row = 0; row < count; row++) {
        const struct site *site = &profile->sites[order[row]];
        fprintf(out, "%*zu", SITE_WIDTH, site->id);
        for (size_t c = 0; c < COLUMN_COUNT; c++) {
            char cell[32];
            double value = 0;
            bool available =
                column_metrics[c]->site_value(profile, site, &value);
            format_metric(column_metrics[c], available, value, cell,
                          sizeof cell);
            fprintf(out, " %*s", COLUMN_WIDTH, cell);
            if (c == 0) {
                format_percent(value, (double)profile->peak_bytes, cell,
                               sizeof cell);
                fprintf(out, " %6s", cell);
            }
        }
        char name[2048];
        describe_site(profile, site, order, count, name, sizeof name);
        fprintf(out, "  ");
        print_cut(out, name, REPORT_WIDTH - TABLE_NAME_COLUMN);
        fputc('\n', out);
    }
}

/* "???" means nothing to a stranger: said once under the table, as the
 * tool's summary does, for the first top site named by a frame without a
 * symbol ("??? (in /usr/bin/sort)"), but for the runtime's own sites,
 * whose note says what they are. */
static void print_unnamed_hint(FILE *out, const struct profile *profile,
                               const size_t *order, size_t count)
{
    for (size_t row = 0; row < count; row++) {
        if (profile->sites[order[row]].runtime_only)
            continue;
        const struct frame *frame =
            site_name_frame(profile, &profile->sites[order[row]]);
        if (frame && !frame->function && frame->object) {
            fprintf(out, "\"???\" marks code without symbols, here in ");
            print_text(out, frame->object);
            fprintf(out, ": its debug symbols or a build with -g would name "
                         "it.\n");
            return;
        }
    }
}

/* Every figure the profile has for a site, in sentences, so the text
 * report shows what the table has no room for. */
static void print_site_details(FILE *out, const struct profile *profile,
                               const struct site *site)
{
    char a[32], b[32], c[32], d[32];
    double run = (double)profile->duration;
    format_size((double)site->bytes_at_peak, a, sizeof a);
    format_size((double)site->max_bytes, b, sizeof b);
    format_percent((double)site->max_time, run, c, sizeof c);
    format_size((double)site->bytes_at_exit, d, sizeof d);
    fprintf(out, "  at the peak %s in %s %s; own max %s in %s %s at %s of "
                 "the run; at exit %s in %s %s\n",
            a, count_text(site->blocks_at_peak).text,
            blocks(site->blocks_at_peak), b,
            count_text(site->max_blocks).text, blocks(site->max_blocks), c,
            d, count_text(site->blocks_at_exit).text,
            blocks(site->blocks_at_exit));
    format_size((double)site->total_bytes, a, sizeof a);
    format_percent((double)site->first_alloc_time, run, b, sizeof b);
    format_percent((double)site->last_alloc_time, run, c, sizeof c);
    fprintf(out, "  allocated %s in %s %s from %s to %s of the run by "
                 "%s thread%s; %s freed, %s by another thread\n",
            a, count_text(site->total_blocks).text,
            blocks(site->total_blocks), b, c,
            count_text(site->allocating_threads).text,
            site->allocating_threads == 1 ? "" : "s",
            count_text(site->freed_blocks).text,
            count_text(site->cross_thread_frees).text);
    format_percent((double)site->lifetime_min, run, a, sizeof a);
    format_percent(site->total_blocks ? (double)site->lifetime_sum /
                                            (double)site->total_blocks
                                      : 0,
                   run, b, sizeof b);
    format_percent((double)site->lifetime_max, run, c, sizeof c);
    fprintf(out, "  lifetime min %s, avg %s, max %s of the run\n", a, b, c);
    if (site->reallocs) {
        format_size((double)site->realloc_requested_bytes, a, sizeof a);
        format_size((double)site->realloc_bytes_copied, b, sizeof b);
        fprintf(out, "  %s realloc%s: %s requested, %s copied\n",
                count_text(site->reallocs).text,
                site->reallocs == 1 ? "" : "s", a, b);
    }
    if (site->has_access) {
        const struct site_access *access = &site->access;
        format_size((double)access->bytes_read, a, sizeof a);
        format_size((double)access->bytes_written, b, sizeof b);
        format_size((double)access->measured_bytes, c, sizeof c);
        fprintf(out, "  read %s, written %s; of the %s measured:\n", a, b, c);
        format_size((double)access->never_read_bytes, a, sizeof a);
        format_size((double)access->never_written_bytes, b, sizeof b);
        format_size((double)access->never_accessed_bytes, c, sizeof c);
        format_size((double)access->unused_capacity_bytes, d, sizeof d);
        fprintf(out, "  never read %s, never written %s, never accessed %s, "
                     "unused capacity %s\n",
                a, b, c, d);
        format_size((double)access->at_peak_bytes, a, sizeof a);
        format_size((double)access->at_peak_never_read_bytes, b, sizeof b);
        format_size((double)access->at_peak_unused_capacity_bytes, c,
                    sizeof c);
        if (access->measured_bytes == 0 && access->at_peak_bytes > 0)
            /* a custom allocator's blocks: their bytes count on the pool's
               own block (docs/reliability.md) */
            fprintf(out, "  %s live at the peak, accesses not measured "
                         "(custom allocator)\n", a);
        else
            fprintf(out, "  of the %s live at the peak: never read %s, "
                         "unused capacity %s\n",
                    a, b, c);
    }
    if (site->has_growth) {
        format_share(site->growth.rising_fraction, a, sizeof a);
        format_share(site->growth.end_to_max_ratio, b, sizeof b);
        fprintf(out, "  growth: rising in %s of the intervals, %.1f "
                     "bytes per million instructions, ends at %s of its "
                     "max\n",
                a, site->growth.slope_bytes_per_million_instructions, b);
    }
}

/* Each top site: its name, notes, every figure, and its stack. */
static void print_sites(FILE *out, const struct profile *profile,
                        const size_t *order, size_t count)
{
    for (size_t row = 0; row < count; row++) {
        const struct site *site = &profile->sites[order[row]];
        char name[2048];
        describe_site(profile, site, order, count, name, sizeof name);
        fprintf(out, "\nsite %zu: ", site->id);
        print_text(out, name);
        fputc('\n', out);
        print_notes(out, site);
        print_site_details(out, profile, site);
        print_stack(out, profile, site);
    }
}

/* "Live at most: 3.6 MiB" for evidence value `index` of a finding. */
static void format_evidence(const struct profile *profile,
                            const struct finding *finding, size_t index,
                            char *label, size_t label_size, char *value,
                            size_t value_size)
{
    const struct evidence *item = &finding->evidence[index];
    evidence_label(finding->kind, item->name, label, label_size);
    evidence_value(item->name, item->value, profile->duration, value,
                   value_size);
}

void print_headline_finding(FILE *out, const struct finding *finding,
                            const char *site_name)
{
    fputc('[', out);
    print_text(out, finding->severity);
    fprintf(out, "]: ");
    print_text(out, evidence_kind_title(finding->kind));
    fprintf(out, " at ");
    print_text(out, site_name);
    fprintf(out, "\n  ");
    print_text(out, finding->summary);
}

/* The most severe finding (the tool writes them most severe first) as the
 * viewer's headline: kind and site, its sentence, its key evidence. */
static void print_headline(FILE *out, const struct profile *profile,
                           const size_t *order, size_t count)
{
    if (profile->finding_count == 0) {
        fprintf(out, "no findings: lifeheap recognised none of its problems "
                     "in this run\n\n");
        return;
    }
    const struct finding *finding = &profile->findings[0];
    char name[2048];
    describe_site(profile, &profile->sites[finding->site], order, count, name,
                  sizeof name);
    fprintf(out, "most severe finding ");
    print_headline_finding(out, finding, name);
    size_t indexes[8];
    size_t shown = evidence_headline(finding, indexes, 8);
    for (size_t i = 0; i < shown; i++) {
        char label[256], value[128];
        format_evidence(profile, finding, indexes[i], label, sizeof label,
                        value, sizeof value);
        fprintf(out, "\n    %-40s %s", label, value);
    }
    if (profile->finding_count > 1)
        fprintf(out, "\n  (%zu more finding%s below)",
                profile->finding_count - 1,
                profile->finding_count == 2 ? "" : "s");
    fprintf(out, "\n\n");
}

static void print_findings(FILE *out, const struct profile *profile,
                           const size_t *order, size_t count)
{
    if (profile->finding_count == 0) {
        fprintf(out, "\nno findings\n");
        return;
    }
    fprintf(out, "\nfindings:\n");
    for (size_t i = 0; i < profile->finding_count; i++) {
        const struct finding *finding = &profile->findings[i];
        char name[2048];
        describe_site(profile, &profile->sites[finding->site], order, count,
                      name, sizeof name);
        fprintf(out, "  ");
        print_finding_heading(out, finding, name);
        fprintf(out, "\n    ");
        print_text(out, finding->summary);
        fputc('\n', out);
        for (size_t e = 0; e < finding->evidence_count; e++) {
            char label[256], value[128];
            format_evidence(profile, finding, e, label, sizeof label, value,
                            sizeof value);
            fprintf(out, "    %-40s %s\n", label, value);
        }
    }
}

/* A line without a space that fits is cut at the width. */
void print_wrapped(FILE *out, const char *text, size_t width)
{
    while (*text) {
        const char *end = strchr(text, '\n');
        size_t bytes = end ? (size_t)(end - text) : strlen(text);
        size_t indent = 0;
        while (indent < bytes && text[indent] == ' ')
            indent++;
        size_t continuation = indent + 4 < width / 2 ? indent + 4 : indent;
        const char *line = text;
        size_t line_bytes = bytes, lead = 0;
        while (display_length(line, line_bytes) + lead > width) {
            size_t room = width - lead, characters = 0, cut = 0, space = 0;
            while (cut < line_bytes) {
                if (((unsigned char)line[cut] & 0xC0) != 0x80 &&
                    characters++ == room)
                    break;
                if (line[cut] == ' ' && cut > 0 && line[cut - 1] != ' ')
                    space = cut;
                cut++;
            }
            size_t take = space > 0 ? space : cut;
            fprintf(out, "%*s%.*s\n", (int)lead, "", (int)take, line);
            line += take;
            line_bytes -= take;
            while (line_bytes > 0 && *line == ' ') {
                line++;
                line_bytes--;
            }
            lead = continuation;
        }
        fprintf(out, "%*s%.*s\n", (int)lead, "", (int)line_bytes, line);
        text += bytes + (end ? 1 : 0);
    }
}

static void report_lines(FILE *out, const struct profile *profile,
                         const struct metric *sort, const size_t *order,
                         size_t count)
{
    print_headline(out, profile, order, count);
    print_header(out, profile, sort, count);
    fputc('\n', out);
    print_table(out, profile, order, count);
    print_unnamed_hint(out, profile, order, count);
    print_sites(out, profile, order, count);
    print_findings(out, profile, order, count);
}

void report_text(FILE *out, const struct profile *profile,
                 const struct metric *sort, const size_t *order, size_t count)
{
    char *text = NULL;
    size_t size = 0;
    FILE *buffer = open_memstream(&text, &size);
    if (!buffer) {   /* no memory for the buffer: unwrapped, still whole */
        report_lines(out, profile, sort, order, count);
        return;
    }
    report_lines(buffer, profile, sort, order, count);
    fclose(buffer);
    print_wrapped(out, text, REPORT_WIDTH);
    free(text);
}
