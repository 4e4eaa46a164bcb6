/* `lifeheap view FILE [--baseline BASE] [-o report.html]`: one
 * self-contained HTML file with the viewer and the profile inlined, to attach
 * to a CI run or a bug. With --baseline the baseline is inlined too and the
 * page opens in diff mode (BASE vs FILE): the proof of a fix.
 *
 * The built viewer is a directory (viewer/dist in the build tree,
 * $(pkgdatadir)/viewer when installed, or $LIFEHEAP_VIEWER_DIR) whose
 * index.html refers only to classic <script src=...> files and
 * <link rel=stylesheet href=...> files in that directory, and which loads
 * the profile found in <script type="application/json"
 * id="lifeheap-profile"> on start. This command rewrites index.html:
 *
 *   <script src="app.js"></script>         ->  <script>…app.js…</script>
 *   <link rel="stylesheet" href="a.css">   ->  <style>…a.css…</style>
 *   (before the first script)              +  <script type="application/json"
 *                                                id="lifeheap-profile">…</script>
 *                                             (+ id="lifeheap-baseline" with
 *                                                --baseline)
 *   <meta http-equiv=Content-Security-Policy>  gains 'sha256-…' sources for
 *                                              each inlined script and style,
 *                                              so a strict policy still
 *                                              allows exactly those.
 *
 * JSON data blocks are never executed, so the policy needs no hash for them.
 *
 * Inlined text cannot end its element early: in each profile every '<'
 * becomes \u003c (JSON has '<' only inside strings, where the escape means
 * the same), in scripts "</script" becomes "<\/script" and "<!--" becomes
 * "<\!--", in styles "</style" becomes "<\/style". A hostile function name
 * in the profile stays data.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "command_args.h"
#include "commands.h"
#include "output_file.h"
#include "sha256.h"
#include "text_builder.h"
#include "util.h"

#ifndef LIFEHEAP_DATADIR
#define LIFEHEAP_DATADIR "/usr/local/share/lifeheap"
#endif

const char view_usage[] =
    "usage: lifeheap view FILE [--baseline BASE] [-o OUTPUT]\n"
    "\n"
    "Writes one self-contained HTML file: the lifeheap viewer with the\n"
    "profile FILE inlined. It opens offline in any browser and can be\n"
    "attached to a CI run or a bug report.\n"
    "\n"
    "  --baseline BASE      inline BASE too: the page opens in diff mode,\n"
    "                       BASE as the baseline and FILE as the change\n"
    "                       (the same comparison as lifeheap diff BASE FILE)\n"
    "  -o, --output OUTPUT  the HTML file to write (default: FILE with .json\n"
    "                       replaced by .html; - writes standard output)\n"
    "  -h, --help           this text\n"
    "\n"
    "The viewer is taken from $LIFEHEAP_VIEWER_DIR when set, else from the\n"
    "build tree (viewer/dist next to this lifeheap), else from the installed\n"
    "copy (" LIFEHEAP_DATADIR "/viewer).\n"
    "\n"
    "Exit status: 0 on success, 2 on a usage error, a bad profile, two\n"
    "profiles of different format versions or a missing viewer.\n";

static bool read_whole_file(const char *path, struct text_builder *contents)
{
    FILE *stream = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!stream)
        return false;
    bool ok = text_append_stream(contents, stream, 0);
    if (stream != stdin)
        fclose(stream);
    return ok;
}

/*--- Finding the viewer -------------------------------------------------*/

static bool has_index(const char *directory)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/index.html", directory);
    return is_regular_file(path);
}

static bool find_viewer(char *directory, size_t size)
{
    const char *override = getenv("LIFEHEAP_VIEWER_DIR");
    if (override && *override) {
        snprintf(directory, size, "%s", override);
        return has_index(directory);
    }
    char self[3072];
    if (executable_directory(self, sizeof self)) {
        snprintf(directory, size, "%s/../viewer/dist", self);
        if (has_index(directory))
            return true;
    }
    snprintf(directory, size, "%s/viewer", LIFEHEAP_DATADIR);
    return has_index(directory);
}

/*--- A minimal HTML tag reader --------------------------------------------*/

enum { MAX_ATTRIBUTES = 32 };

struct tag {
    char name[16];                 /* lower case */
    size_t attribute_count;
    char *names[MAX_ATTRIBUTES];   /* lower case */
    char *values[MAX_ATTRIBUTES];
    const char *end;               /* just after '>' */
};

static void free_tag(struct tag *tag)
{
    for (size_t i = 0; i < tag->attribute_count; i++) {
        free(tag->names[i]);
        free(tag->values[i]);
    }
    tag->attribute_count = 0;
}

static char *copy_range(const char *start, size_t length, bool lower)
{
    char *copy = malloc(length + 1);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < length; i++)
        copy[i] = lower ? (char)tolower((unsigned char)start[i]) : start[i];
    copy[length] = '\0';
    return copy;
}

/* Reads the start tag at `p` ('<' followed by a name). False when it is
 * not a well-formed start tag. */
static bool read_tag(const char *p, struct tag *tag)
{
    memset(tag, 0, sizeof *tag);
    p++;
    size_t n = 0;
    while (isalnum((unsigned char)*p) && n + 1 < sizeof tag->name)
        tag->name[n++] = (char)tolower((unsigned char)*p++);
    if (n == 0)
        return false;
    for (;;) {
        while (isspace((unsigned char)*p) || *p == '/')
            p++;
        if (*p == '>') {
            tag->end = p + 1;
            return true;
        }
        if (!*p || tag->attribute_count == MAX_ATTRIBUTES)
            return false;
        const char *name = p;
        while (*p && !isspace((unsigned char)*p) && *p != '=' && *p != '>' &&
               *p != '/')
            p++;
        const char *value = p;
        size_t value_length = 0;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '=') {
            p++;
            while (isspace((unsigned char)*p))
                p++;
            if (*p == '"' || *p == '\'') {
                char quote = *p++;
                value = p;
                while (*p && *p != quote)
                    p++;
                if (!*p)
                    return false;
                value_length = (size_t)(p - value);
                p++;
            } else {
                value = p;
                while (*p && !isspace((unsigned char)*p) && *p != '>')
                    p++;
                value_length = (size_t)(p - value);
            }
        }
        size_t i = tag->attribute_count;
        tag->names[i] = copy_range(name, (size_t)(value - name), true);
        /* The name ended at '=', a space or '>': trim what followed it. */
        tag->names[i][strcspn(tag->names[i], "= \t\r\n>")] = '\0';
        tag->values[i] = copy_range(value, value_length, false);
        tag->attribute_count++;
        if (!tag->names[i] || !tag->values[i])
            return false;
    }
}

static const char *attribute(const struct tag *tag, const char *name)
{
    for (size_t i = 0; i < tag->attribute_count; i++)
        if (strcmp(tag->names[i], name) == 0)
            return tag->values[i];
    return NULL;
}

static const char *find_caseless(const char *haystack, const char *needle)
{
    size_t length = strlen(needle);
    for (const char *p = haystack; *p; p++)
        if (strncasecmp(p, needle, length) == 0)
            return p;
    return NULL;
}

/*--- Inlining ---------------------------------------------------------------*/

struct page {
    const char *viewer_directory;
    struct text_builder out;
    bool profiles_written;
    const struct text_builder *profile_json;
    const char *profile_name;     /* data-name, NULL for none */
    const struct text_builder *baseline_json;   /* NULL without --baseline */
    const char *baseline_name;
    size_t csp_position;          /* where the CSP meta tag goes */
    char *csp_policy;             /* its content, NULL when none */
    struct text_builder script_hashes;  /* " 'sha256-...'" each */
    struct text_builder style_hashes;
    char error[8400];
};

/* Appends `text` with every occurrence of `from` (caseless) replaced. */
static void append_replacing(struct text_builder *out, const char *text,
                             size_t length, const char *from, const char *to)
{
    size_t from_length = strlen(from), start = 0;
    for (size_t i = 0; i + from_length <= length; i++) {
        if (strncasecmp(text + i, from, from_length) == 0) {
            text_append(out, text + start, i - start);
            text_append_string(out, to);
            start = i + from_length;
            i += from_length - 1;
        }
    }
    text_append(out, text + start, length - start);
}

/* <script type="application/json" id=ID data-name=NAME>JSON</script>, with
 * every '<' of the JSON written \u003c so no string in it ends the element. */
static void write_data_element(struct text_builder *out, const char *id,
                               const char *name, const struct text_builder *json)
{
    text_append_string(out, "<script type=\"application/json\" id=\"");
    text_append_string(out, id);
    text_append_string(out, "\"");
    if (name) {
        text_append_string(out, " data-name=\"");
        for (const char *p = name; *p; p++) {
            switch (*p) {
            case '&': text_append_string(out, "&amp;"); break;
            case '"': text_append_string(out, "&quot;"); break;
            case '<': text_append_string(out, "&lt;"); break;
            case '>': text_append_string(out, "&gt;"); break;
            default: text_append(out, p, 1);
            }
        }
        text_append_string(out, "\"");
    }
    text_append_string(out, ">");
    size_t start = 0;
    for (size_t i = 0; i < json->length; i++) {
        if (json->data[i] == '<') {
            text_append(out, json->data + start, i - start);
            text_append_string(out, "\\u003c");
            start = i + 1;
        }
    }
    text_append(out, json->data + start, json->length - start);
    text_append_string(out, "</script>\n");
}

/* The data blocks go before the first script, which reads them on start. */
static void write_profile_elements(struct page *page)
{
    if (page->profiles_written)
        return;
    page->profiles_written = true;
    write_data_element(&page->out, "lifeheap-profile", page->profile_name,
                       page->profile_json);
    if (page->baseline_json)
        write_data_element(&page->out, "lifeheap-baseline",
                           page->baseline_name, page->baseline_json);
}

/* Reads a file the viewer refers to; false (with page->error) when it is
 * not a plain relative name inside the viewer directory. */
static bool read_asset(struct page *page, const char *name,
                       struct text_builder *contents)
{
    if (!*name || name[0] == '/' || strstr(name, "..") || strchr(name, ':') ||
        strchr(name, '?') || strchr(name, '#')) {
        snprintf(page->error, sizeof page->error,
                 "the viewer refers to '%s', which is not a file in its "
                 "directory",
                 name);
        return false;
    }
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", page->viewer_directory, name);
    if (!read_whole_file(path, contents)) {
        snprintf(page->error, sizeof page->error, "cannot read %s: %s", path,
                 strerror(errno));
        return false;
    }
    return true;
}

static void append_attributes_except(struct text_builder *out, const struct tag *tag,
                                     const char *skipped)
{
    for (size_t i = 0; i < tag->attribute_count; i++) {
        if (strcmp(tag->names[i], skipped) == 0 ||
            strcmp(tag->names[i], "integrity") == 0 ||
            strcmp(tag->names[i], "crossorigin") == 0)
            continue;
        text_append_string(out, " ");
        text_append_string(out, tag->names[i]);
        text_append_string(out, "=\"");
        for (const char *p = tag->values[i]; *p; p++)
            text_append_string(out, *p == '"' ? "&quot;" : (char[]){*p, 0});
        text_append_string(out, "\"");
    }
}

static void add_hash(struct text_builder *hashes, const char *data, size_t length)
{
    char source[80];
    csp_hash_source(data, length, source);
    text_append_string(hashes, " ");
    text_append_string(hashes, source);
}

/* Inlines <script src=...></script>; returns where scanning continues. */
static const char *inline_script(struct page *page, const struct tag *tag,
                                 const char *tag_start)
{
    const char *close = find_caseless(tag->end, "</script");
    const char *close_end = close ? strchr(close, '>') : NULL;
    if (!close_end) {
        snprintf(page->error, sizeof page->error,
                 "index.html: a <script> element is not closed");
        return NULL;
    }
    write_profile_elements(page);
    const char *source = attribute(tag, "src");
    if (!source) {
        /* Already inline: copy it as it is. */
        text_append(&page->out, tag_start, (size_t)(close_end + 1 - tag_start));
        return close_end + 1;
    }
    struct text_builder code = {0}, escaped = {0};
    if (!read_asset(page, source, &code)) {
        free(code.data);
        return NULL;
    }
    struct text_builder step = {0};
    append_replacing(&step, code.data, code.length, "</script", "<\\/script");
    append_replacing(&escaped, step.data ? step.data : "", step.length,
                     "<!--", "<\\!--");
    text_append_string(&page->out, "<script");
    append_attributes_except(&page->out, tag, "src");
    text_append_string(&page->out, ">");
    text_append(&page->out, escaped.data ? escaped.data : "", escaped.length);
    text_append_string(&page->out, "</script>");
    add_hash(&page->script_hashes, escaped.data ? escaped.data : "",
             escaped.length);
    bool failed = code.failed || step.failed || escaped.failed;
    free(code.data);
    free(step.data);
    free(escaped.data);
    if (failed) {
        snprintf(page->error, sizeof page->error, "out of memory");
        return NULL;
    }
    return close_end + 1;
}

static bool is_stylesheet(const struct tag *tag)
{
    const char *rel = attribute(tag, "rel");
    if (!rel)
        return false;
    /* rel is a space-separated list of tokens. */
    const char *p = rel;
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        size_t length = strcspn(p, " \t\r\n");
        if (length == 10 && strncasecmp(p, "stylesheet", 10) == 0)
            return true;
        p += length;
    }
    return false;
}

static bool inline_stylesheet(struct page *page, const struct tag *tag)
{
    struct text_builder css = {0}, escaped = {0};
    if (!read_asset(page, attribute(tag, "href"), &css)) {
        free(css.data);
        return false;
    }
    append_replacing(&escaped, css.data, css.length, "</style", "<\\/style");
    text_append_string(&page->out, "<style>");
    text_append(&page->out, escaped.data ? escaped.data : "", escaped.length);
    text_append_string(&page->out, "</style>");
    add_hash(&page->style_hashes, escaped.data ? escaped.data : "",
             escaped.length);
    free(css.data);
    free(escaped.data);
    return true;
}

/* True when a CSP directive's name (its first name_length characters) is
 * `name`; directive names are case-insensitive. */
static bool directive_named(const char *directive, size_t name_length,
                            const char *name)
{
    return name_length == strlen(name) &&
           strncasecmp(directive, name, name_length) == 0;
}

static void append_hashes(struct text_builder *policy, const struct text_builder *hashes)
{
    text_append(policy, hashes->data ? hashes->data : "", hashes->length);
}

/* The policy with the inlined scripts' and styles' hashes allowed. */
static void rewrite_policy(const struct page *page, struct text_builder *policy)
{
    bool has_script = false, has_style = false;
    const char *default_sources = NULL;
    size_t default_length = 0;
    char *copy = strdup(page->csp_policy);
    if (!copy) {
        policy->failed = true;
        return;
    }
    const char *separator = "";
    for (char *save = NULL, *directive = strtok_r(copy, ";", &save); directive;
         directive = strtok_r(NULL, ";", &save)) {
        while (isspace((unsigned char)*directive))
            directive++;
        size_t length = strlen(directive);
        while (length && isspace((unsigned char)directive[length - 1]))
            directive[--length] = '\0';
        if (!length)
            continue;
        size_t name_length = strcspn(directive, " \t");
        text_append_string(policy, separator);
        text_append_string(policy, directive);
        separator = "; ";
        if (directive_named(directive, name_length, "script-src") ||
            directive_named(directive, name_length, "script-src-elem")) {
            has_script = true;
            append_hashes(policy, &page->script_hashes);
        } else if (directive_named(directive, name_length, "style-src") ||
                   directive_named(directive, name_length, "style-src-elem")) {
            has_style = true;
            append_hashes(policy, &page->style_hashes);
        } else if (directive_named(directive, name_length, "default-src")) {
            default_sources = page->csp_policy +
                              (directive + name_length - copy);
            default_length = length - name_length;
        }
    }
    /* Without script-src or style-src, default-src governs them: add the
     * directive with default-src's sources plus the hashes. */
    if (default_sources && !has_script && page->script_hashes.length) {
        text_append_string(policy, "; script-src");
        text_append(policy, default_sources, default_length);
        text_append(policy, page->script_hashes.data, page->script_hashes.length);
    }
    if (default_sources && !has_style && page->style_hashes.length) {
        text_append_string(policy, "; style-src");
        text_append(policy, default_sources, default_length);
        text_append(policy, page->style_hashes.data, page->style_hashes.length);
    }
    free(copy);
}

static bool build_page(struct page *page, const char *index)
{
    const char *p = index;
    while (*p) {
        const char *open = strchr(p, '<');
        if (!open) {
            text_append_string(&page->out, p);
            break;
        }
        text_append(&page->out, p, (size_t)(open - p));
        if (strncmp(open, "<!--", 4) == 0) {
            const char *end = strstr(open + 4, "-->");
            end = end ? end + 3 : open + strlen(open);
            text_append(&page->out, open, (size_t)(end - open));
            p = end;
            continue;
        }
        if (strncasecmp(open, "</body", 6) == 0)
            write_profile_elements(page);
        struct tag tag;
        if (!read_tag(open, &tag)) {
            free_tag(&tag);
            text_append(&page->out, open, 1);
            p = open + 1;
            continue;
        }
        const char *next = tag.end;
        if (strcmp(tag.name, "script") == 0) {
            next = inline_script(page, &tag, open);
        } else if (strcmp(tag.name, "link") == 0 && is_stylesheet(&tag) &&
                   attribute(&tag, "href")) {
            if (!inline_stylesheet(page, &tag))
                next = NULL;
        } else if (strcmp(tag.name, "meta") == 0 &&
                   attribute(&tag, "http-equiv") &&
                   strcasecmp(attribute(&tag, "http-equiv"),
                              "content-security-policy") == 0 &&
                   attribute(&tag, "content") && !page->csp_policy) {
            page->csp_position = page->out.length;
            page->csp_policy = strdup(attribute(&tag, "content"));
        } else {
            text_append(&page->out, open, (size_t)(tag.end - open));
        }
        free_tag(&tag);
        if (!next)
            return false;
        p = next;
    }
    write_profile_elements(page);
    if (page->out.failed) {
        snprintf(page->error, sizeof page->error, "out of memory");
        return false;
    }
    return true;
}

/*--- The command ----------------------------------------------------------*/

/* Reads FILE into `json` and validates it with the profile loader (the
 * same checks as report and diff). False, with the reason printed, when it
 * is not a profile this lifeheap reads. */
static bool read_profile(const char *path, struct text_builder *json,
                         int64_t *format_version)
{
    char error[1024];
    if (!read_whole_file(path, json)) {
        fprintf(stderr, "lifeheap: %s: %s\n", path,
                json->failed ? "out of memory" : strerror(errno));
        return false;
    }
    struct profile *profile = profile_parse(path, json->data, json->length,
                                            error, sizeof error);
    if (!profile) {
        print_error(error);
        return false;
    }
    *format_version = profile->format_version;
    profile_free(profile);
    return true;
}

/* The name the page shows for a profile: the file's base name (nothing for
 * standard input, so the viewer says "embedded profile"). */
static const char *display_name(const char *path)
{
    if (strcmp(path, "-") == 0)
        return NULL;
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The page through output_file.c: atomically for a regular file, written
 * through for a device or a FIFO, never replacing what -o names. */
static bool write_output(const char *path, const struct text_builder *head,
                         const struct text_builder *meta, const struct text_builder *tail,
                         char *error, size_t error_size)
{
    struct output_file out;
    if (!output_open(&out, path)) {
        snprintf(error, error_size, "%s", out.error);
        return false;
    }
    fwrite(head->data, 1, head->length, out.stream);
    fwrite(meta->data ? meta->data : "", 1, meta->length, out.stream);
    fwrite(tail->data ? tail->data : "", 1, tail->length, out.stream);
    if (!output_commit(&out)) {
        snprintf(error, error_size, "%s", out.error);
        return false;
    }
    return true;
}

int cmd_view(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, NULL, 'o'},
        {"baseline", required_argument, NULL, 'b'},
        ARGS_HELP_AND_END,
    };
    const char *output = NULL, *baseline = NULL;
    struct command_args args = {
        .command = "view", .usage = view_usage, .options = options,
        .short_options = "ho:"};
    int option;
    while ((option = args_next(&args, argc, argv)) != ARGS_END) {
        switch (option) {
        case 'o': output = optarg; break;
        case 'b': baseline = optarg; break;
        default: return args.status;   /* ARGS_STOP */
        }
    }
    if (!args_operands(&args, argc, 1, "missing FILE"))
        return args.status;
    const char *input = argv[optind];
    if (baseline && strcmp(input, "-") == 0 && strcmp(baseline, "-") == 0)
        return args_usage_error(&args, "FILE and --baseline cannot both be "
                                       "standard input");
    char default_output[4096];
    if (!output) {
        if (strcmp(input, "-") == 0)
            return args_usage_error(&args,
                                    "reading standard input needs -o OUTPUT");
        size_t length = strlen(input);
        if (length > 5 && strcmp(input + length - 5, ".json") == 0)
            length -= 5;
        snprintf(default_output, sizeof default_output, "%.*s.html",
                 (int)length, input);
        output = default_output;
    }

    struct text_builder json = {0}, baseline_json = {0}, index = {0}, meta = {0};
    struct page page = {.profile_json = &json,
                        .profile_name = display_name(input)};
    int status = EXIT_USAGE;
    char directory[4096], path[4200];
    int64_t version = 0, baseline_version = 0;
    if (!read_profile(input, &json, &version))
        goto done;
    if (baseline) {
        if (!read_profile(baseline, &baseline_json, &baseline_version))
            goto done;
        /* Today's loader reads one version only; this keeps `view` refusing
         * a mixed pair, as `diff` does, once it reads more. */
        if (baseline_version != version) {
            fprintf(stderr, "lifeheap view: cannot compare format version "
                            "%lld with format version %lld\n",
                    (long long)baseline_version, (long long)version);
            goto done;
        }
        page.baseline_json = &baseline_json;
        page.baseline_name = display_name(baseline);
    }
    if (!find_viewer(directory, sizeof directory)) {
        fprintf(stderr, "lifeheap view: no viewer found (looked for "
                        "index.html in %s; set LIFEHEAP_VIEWER_DIR or build "
                        "viewer/dist)\n",
                directory);
        goto done;
    }
    page.viewer_directory = directory;
    snprintf(path, sizeof path, "%s/index.html", directory);
    if (!read_whole_file(path, &index)) {
        fprintf(stderr, "lifeheap view: cannot read %s\n", path);
        goto done;
    }
    if (!build_page(&page, index.data)) {
        fprintf(stderr, "lifeheap view: %s\n", page.error);
        goto done;
    }
    /* The page around the policy's place (borrowed, not built). */
    struct text_builder head = {.data = page.out.data,
                                .length = page.csp_position};
    struct text_builder tail = {.data = page.out.data + page.csp_position,
                                .length = page.out.length - page.csp_position};
    if (!page.csp_policy) {
        head.length = page.out.length;
        tail.length = 0;
    } else {
        struct text_builder policy = {0};
        rewrite_policy(&page, &policy);
        text_append_string(&meta, "<meta http-equiv=\"Content-Security-Policy\" "
                           "content=\"");
        for (size_t i = 0; policy.data && i < policy.length; i++)
            text_append_string(&meta, policy.data[i] == '"' ? "&quot;"
                                                     : (char[]){policy.data[i],
                                                                0});
        text_append_string(&meta, "\">");
        free(policy.data);
    }
    char write_error[4500];
    if (meta.failed) {
        fprintf(stderr, "lifeheap view: cannot write %s: out of memory\n",
                output);
        goto done;
    }
    if (!write_output(output, &head, &meta, &tail, write_error,
                      sizeof write_error)) {
        fprintf(stderr, "lifeheap view: %s\n", write_error);
        goto done;
    }
    if (strcmp(output, "-") != 0)
        fprintf(stderr, "lifeheap view: wrote %s\n", output);
    status = EXIT_OK;

done:
    free(json.data);
    free(baseline_json.data);
    free(index.data);
    free(meta.data);
    free(page.out.data);
    free(page.csp_policy);
    free(page.script_hashes.data);
    free(page.style_hashes.data);
    return status;
}
