/* The directory of the running program: /proc/self/exe up to its last
 * slash (see self_directory.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "self_directory.h"

#include <string.h>
#include <unistd.h>

bool executable_directory(char *buffer, size_t size)
{
    if (size < 2)
        return false;
    ssize_t length = readlink("/proc/self/exe", buffer, size - 1);
    if (length <= 0 || (size_t)length >= size - 1)
        return false;
    buffer[length] = '\0';
    char *slash = strrchr(buffer, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return true;
}
