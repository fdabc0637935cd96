/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_EXPORT_H
#define _LINUX_EXPORT_H

/* One program, no module loader: every global symbol is already visible. */
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#define EXPORT_SYMBOL_FOR_MODULES(sym, mods)
#define THIS_MODULE ((struct module *)0)

#endif /* _LINUX_EXPORT_H */
