/*--------------------------------------------------------------------*/
/*--- lifeheap: lh_outfile.c: where the profile's bytes go, without ---*/
/*--- damaging what the output name points at.                      ---*/
/*--------------------------------------------------------------------*/
/*
   lifeheap is free software: GPL-3.0-or-later.

   The profile's name may be anything the user (or a CI script running
   as root) typed.  What happens depends on what the name is now:

     name                            how the profile is written
     ------------------------------  -----------------------------------
     does not exist                  atomically (below), under the name
     a regular file                  atomically; the file's mode (and,
                                     as root, owner) are kept
     a symlink to a regular file,    atomically, to the link's final
       or a dangling symlink          target; the link itself stays
     a character or block device,    written through: opened for writing
       a FIFO, a symlink to one        and written, never replaced
       (/dev/null, /dev/stdout...)    (a FIFO must have a reader, or the
                                     write fails at once: no hang)
     a name reached through /proc    written through, appended (the
       (/dev/stdout -> /proc/self/    program's own redirected stdout is
       fd/1 -> a regular file)        never truncated nor replaced)
     a directory, a socket           refused with a clear error

   Atomically: the document goes to "<target>.tmp-<pid>-<n>" beside the
   target, created with O_CREAT|O_EXCL|O_NOFOLLOW (never an existing file
   nor a symlink planted under that name: n counts up on a clash), and is
   renamed over the target only when every byte was written.  A reader
   never sees half a profile; a failure unlinks the temporary file, which
   is ours, and leaves the target as it was.

   Symlinks are followed by reading them (VG_(readlink)), at most 40
   deep, relative ones from their own directory, so the rename replaces
   the final target, not the link.
*/

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "lh_include.h"
#include "lh_outfile.h"

/* Not in the tool headers; exported by the core (m_libcfile.c,
   m_syscall.c), as Valgrind's own tools use them. */
extern Int    VG_(fcntl)(Int fd, Int cmd, Addr arg);
extern SysRes VG_(do_syscall)(UWord sysno, RegWord, RegWord, RegWord,
                              RegWord, RegWord, RegWord, RegWord, RegWord);

/* The vki headers of Valgrind 3.19 lack these two open flags. */
#ifndef VKI_O_NOFOLLOW
#  if defined(VGA_arm) || defined(VGA_arm64) || defined(VGA_ppc32) \
      || defined(VGA_ppc64be) || defined(VGA_ppc64le)
#    define VKI_O_NOFOLLOW 0100000
#  else
#    define VKI_O_NOFOLLOW 0400000
#  endif
#endif
#ifndef VKI_O_NOCTTY
#  if defined(VGA_mips32) || defined(VGA_mips64)
#    define VKI_O_NOCTTY 0x800
#  else
#    define VKI_O_NOCTTY 0400
#  endif
#endif

#ifndef VKI_ENAMETOOLONG
#  define VKI_ENAMETOOLONG 36     /* asm-generic/errno.h */
#endif

#define LH_MAX_SYMLINKS 40

/* A refusal of a socket (no errno says "is a socket"). */
#define LH_ERR_IS_SOCKET 0x10000

const HChar* LH_(errno_text)(UWord err)
{
   switch (err) {
      case VKI_ENOENT:  return "no such directory";
      case VKI_EACCES:  return "permission denied";
      case VKI_EPERM:   return "operation not permitted";
      case VKI_EROFS:   return "read-only file system";
      case VKI_ENOTDIR: return "a component of the path is not a directory";
      case VKI_ENOSPC:  return "no space left on device";
      case VKI_EISDIR:  return "is a directory";
      case VKI_ELOOP:   return "too many levels of symbolic links";
      case VKI_ENXIO:   return "no process is reading it (a FIFO needs a "
                               "reader when the profile is written)";
      case VKI_ENAMETOOLONG: return "file name too long";
      case LH_ERR_IS_SOCKET: return "is a socket, not a file";
      default:          return "cannot create files there";
   }
}

/* "dir/link" + "target" -> "dir/target"; an absolute target as it is. */
static HChar* join_link(const HChar* link_path, const HChar* target)
{
   const HChar* slash;
   SizeT dir_len;
   HChar* out;
   if (target[0] == '/') return VG_(strdup)("lh.outfile.link", target);
   slash = VG_(strrchr)(link_path, '/');
   dir_len = slash ? (SizeT)(slash - link_path) + 1 : 0;
   out = VG_(malloc)("lh.outfile.link", dir_len + VG_(strlen)(target) + 1);
   VG_(memcpy)(out, link_path, dir_len);
   VG_(strcpy)(out + dir_len, target);
   return out;
}

static Bool is_proc_path(const HChar* path)
{
   return VG_(strncmp)(path, "/proc/", 6) == 0
          || VG_(strncmp)(path, "/dev/fd/", 8) == 0;
}

LH_OutKind LH_(outfile_classify)(const HChar* path, HChar** target,
                                 UWord* error)
{
   HChar* current = VG_(strdup)("lh.outfile.path", path);
   HChar link[VKI_PATH_MAX];
   struct vg_stat st;
   SysRes sr;
   Bool through_proc = is_proc_path(path)
                       || VG_(strcmp)(path, "/dev/stdout") == 0
                       || VG_(strcmp)(path, "/dev/stderr") == 0
                       || VG_(strcmp)(path, "/dev/stdin") == 0;
   UInt depth;

   *target = NULL;
   *error = 0;
   /* What the name finally is (stat follows every link). */
   sr = VG_(stat)(path, &st);
   if (!sr_isError(sr)) {
      if (VKI_S_ISDIR(st.mode)) {
         VG_(free)(current);
         *error = VKI_EISDIR;
         return LH_OutRefused;
      }
      if (VKI_S_ISSOCK(st.mode)) {
         VG_(free)(current);
         *error = LH_ERR_IS_SOCKET;
         return LH_OutRefused;
      }
      if (!VKI_S_ISREG(st.mode)) {
         *target = current;
         return LH_OutWriteThrough;
      }
   }
   /* A regular file or a new name: find the file the links lead to. */
   for (depth = 0; ; depth++) {
      SSizeT n = VG_(readlink)(current, link, sizeof(link) - 1);
      HChar* next;
      if (n <= 0) break;                       /* not a link */
      if (depth == LH_MAX_SYMLINKS) {
         VG_(free)(current);
         *error = VKI_ELOOP;
         return LH_OutRefused;
      }
      link[n] = 0;
      next = join_link(current, link);
      VG_(free)(current);
      current = next;
      if (is_proc_path(current)) through_proc = True;
   }
   *target = current;
   /* A descriptor's file (/dev/stdout redirected to a file): appended to,
      never replaced (the program's own output is in it). */
   if (through_proc && !sr_isError(sr)) return LH_OutAppend;
   return LH_OutReplace;
}

/* A temporary name beside `target`, created exclusively: n counts up on
   a clash with any existing name (a stale file, a planted symlink). */
static SysRes create_temporary(const HChar* target, HChar** temporary)
{
   static UInt counter = 0;
   HChar* name = VG_(malloc)("lh.outfile.tmp", VG_(strlen)(target) + 48);
   SysRes sr;
   UInt attempt;
   for (attempt = 0; attempt < 1000; attempt++) {
      VG_(sprintf)(name, "%s.tmp-%d-%u", target, VG_(getpid)(), counter++);
      sr = VG_(open)(name, VKI_O_CREAT | VKI_O_EXCL | VKI_O_NOFOLLOW
                           | VKI_O_WRONLY, 0644);
      if (!sr_isError(sr) || sr_Err(sr) != VKI_EEXIST) break;
   }
   if (sr_isError(sr)) { VG_(free)(name); *temporary = NULL; return sr; }
   *temporary = name;
   return sr;
}

/* The new file keeps an existing file's permissions (and owner, when
   lifeheap may set it: as root), as an editor saving it would. */
static void copy_mode_and_owner(Int fd, const HChar* target)
{
   struct vg_stat st;
   if (sr_isError(VG_(stat)(target, &st)) || !VKI_S_ISREG(st.mode)) return;
   (void)VG_(do_syscall)(__NR_fchmod, fd, st.mode & 07777, 0, 0, 0, 0, 0, 0);
   if (VG_(geteuid)() == 0)
      (void)VG_(do_syscall)(__NR_fchown, fd, st.uid, st.gid, 0, 0, 0, 0, 0);
}

/* Opens a device, a FIFO or a descriptor's file for writing without
   blocking on a FIFO that has no reader, then makes writes blocking again
   (a full pipe waits for its reader rather than failing). */
static SysRes open_through(const HChar* path, Bool append)
{
   Int flags = VKI_O_WRONLY | VKI_O_NOCTTY | VKI_O_NONBLOCK
               | (append ? VKI_O_APPEND : 0);
   SysRes sr = VG_(open)(path, flags, 0);
   if (!sr_isError(sr)) {
      Int fd = (Int)sr_Res(sr);
      Int now = VG_(fcntl)(fd, VKI_F_GETFL, 0);
      if (now >= 0) VG_(fcntl)(fd, VKI_F_SETFL, now & ~VKI_O_NONBLOCK);
   }
   return sr;
}

Bool LH_(outfile_open)(const HChar* path, LH_OutFile* out)
{
   SysRes sr;
   UWord error;
   out->fd = -1;
   out->temporary = NULL;
   out->kind = LH_(outfile_classify)(path, &out->target, &error);
   out->path = path;
   switch (out->kind) {
      case LH_OutRefused:
         VG_(umsg)("lifeheap: error: cannot write the profile to %s: %s; "
                   "no profile written\n", path, LH_(errno_text)(error));
         return False;
      case LH_OutWriteThrough:
      case LH_OutAppend:
         sr = open_through(path, out->kind == LH_OutAppend);
         if (sr_isError(sr)) {
            VG_(umsg)("lifeheap: error: cannot open %s for writing: %s; "
                      "no profile written\n", path, LH_(errno_text)(sr_Err(sr)));
            VG_(free)(out->target);
            out->target = NULL;
            return False;
         }
         out->fd = (Int)sr_Res(sr);
         return True;
      case LH_OutReplace:
         sr = create_temporary(out->target, &out->temporary);
         if (sr_isError(sr)) {
            VG_(umsg)("lifeheap: error: cannot create a temporary file beside "
                      "%s: %s; no profile written\n", out->target,
                      LH_(errno_text)(sr_Err(sr)));
            VG_(free)(out->target);
            out->target = NULL;
            return False;
         }
         out->fd = (Int)sr_Res(sr);
         copy_mode_and_owner(out->fd, out->target);
         return True;
   }
   return False;
}

static void outfile_release(LH_OutFile* out)
{
   if (out->temporary) VG_(free)(out->temporary);
   if (out->target) VG_(free)(out->target);
   out->temporary = out->target = NULL;
   out->fd = -1;
}

void LH_(outfile_abort)(LH_OutFile* out)
{
   if (out->fd >= 0) VG_(close)(out->fd);
   if (out->temporary) VG_(unlink)(out->temporary);
   outfile_release(out);
}

Bool LH_(outfile_commit)(LH_OutFile* out)
{
   Bool ok = True;
   if (out->fd >= 0) VG_(close)(out->fd);
   out->fd = -1;
   if (out->kind == LH_OutReplace) {
      if (VG_(rename)(out->temporary, out->target) != 0) {
         VG_(umsg)("lifeheap: error: cannot rename %s to %s; no profile "
                   "written\n", out->temporary, out->target);
         VG_(unlink)(out->temporary);
         ok = False;
      }
   }
   outfile_release(out);
   return ok;
}

Bool LH_(outfile_is_replaced)(const HChar* path)
{
   HChar* target;
   UWord error;
   LH_OutKind kind = LH_(outfile_classify)(path, &target, &error);
   if (target) VG_(free)(target);
   return kind == LH_OutReplace;
}

Bool LH_(outfile_probe)(const HChar* path, const HChar** why)
{
   HChar* target;
   HChar* temporary;
   UWord error;
   SysRes sr;
   LH_OutKind kind = LH_(outfile_classify)(path, &target, &error);
   *why = NULL;
   switch (kind) {
      case LH_OutRefused:
         *why = LH_(errno_text)(error);
         return False;
      case LH_OutWriteThrough:
      case LH_OutAppend:
         /* Opened at the end only: a FIFO's reader may come later. */
         VG_(free)(target);
         return True;
      case LH_OutReplace:
         sr = create_temporary(target, &temporary);
         VG_(free)(target);
         if (sr_isError(sr)) {
            *why = LH_(errno_text)(sr_Err(sr));
            return False;
         }
         VG_(close)((Int)sr_Res(sr));
         VG_(unlink)(temporary);
         VG_(free)(temporary);
         return True;
   }
   return False;
}
