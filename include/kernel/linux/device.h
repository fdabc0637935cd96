/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_DEVICE_H
#define _LINUX_DEVICE_H

/*
 * A minimal struct device: a name, a parent, a driver and driver data,
 * enough for drivers' dev_*() messages and drvdata.  No bus, sysfs or
 * driver model.  dev_*() print "<driver> <device>: message" (or just
 * "<device>: " without a driver), as the kernel does.
 */

#include <linux/gfp_types.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/types.h>

struct device_driver {
	const char *name;
};

struct device {
	struct device *parent;
	const char *init_name;
	const struct device_driver *driver;
	void *driver_data;
	void *platform_data;
	/* Managed resources, newest first; all zero: none (devres.c). */
	struct list_head devres_head;
};

static inline const char *dev_name(const struct device *dev)
{
	return dev->init_name ? dev->init_name : "(null)";
}
static inline const char *dev_driver_string(const struct device *dev)
{
	return dev->driver && dev->driver->name ? dev->driver->name : "";
}
static inline void *dev_get_drvdata(const struct device *dev)
{
	return dev->driver_data;
}
static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}
static inline int dev_set_name(struct device *dev, const char *name)
{
	dev->init_name = name;
	return 0;
}
/*
 * Device-managed resources (devres), minimal: actions and allocations tied
 * to the device, released in the reverse order of their adding when the
 * driver is detached (device_release_driver()).  No groups, no
 * devres_alloc()/devres_add() with typed release functions.
 */
/** devm_add_action() - run @action(@data) at release. Process context. */
int devm_add_action(struct device *dev, void (*action)(void *), void *data);
/** devm_remove_action() - forget a devm_add_action() unrun. Process context. */
void devm_remove_action(struct device *dev, void (*action)(void *), void *data);
/** devm_release_action() - forget it and run it now. Process context. */
void devm_release_action(struct device *dev, void (*action)(void *),
			 void *data);
/**
 * devm_add_action_or_reset() - devm_add_action(), running @action(@data)
 * at once if it cannot be added (out of memory). Process context.
 */
static inline int devm_add_action_or_reset(struct device *dev,
					   void (*action)(void *), void *data)
{
	int ret = devm_add_action(dev, action, data);

	if (ret)
		action(data);
	return ret;
}
/** devm_kmalloc() - kmalloc() freed at release. Contexts of @gfp. */
void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp);
static inline void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	return devm_kmalloc(dev, size, gfp | __GFP_ZERO);
}
/** devm_kfree() - free a devm_kmalloc() block early. Process context. */
void devm_kfree(struct device *dev, const void *p);
/**
 * device_release_driver() - detach @dev's driver: its managed resources
 * are released, newest first, and @dev->driver is cleared. Process context.
 */
void device_release_driver(struct device *dev);

#define get_device(dev) (dev)
#define put_device(dev) ((void)(dev))

#define __pk_dev_printk(printer, level, dev, fmt, ...)                         \
	printer(level "%s%s%s: " fmt, dev_driver_string(dev),                  \
		*dev_driver_string(dev) ? " " : "", dev_name(dev),             \
		##__VA_ARGS__)
#define dev_printk(level, dev, fmt, ...)                                       \
	__pk_dev_printk(printk, level, dev, fmt, ##__VA_ARGS__)
#define dev_emerg(dev, fmt, ...) dev_printk(KERN_EMERG, dev, fmt, ##__VA_ARGS__)
#define dev_alert(dev, fmt, ...) dev_printk(KERN_ALERT, dev, fmt, ##__VA_ARGS__)
#define dev_crit(dev, fmt, ...) dev_printk(KERN_CRIT, dev, fmt, ##__VA_ARGS__)
#define dev_err(dev, fmt, ...) dev_printk(KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)                                                \
	dev_printk(KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...)                                              \
	dev_printk(KERN_NOTICE, dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) dev_printk(KERN_INFO, dev, fmt, ##__VA_ARGS__)
#ifdef DEBUG
#define dev_dbg(dev, fmt, ...) dev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#else
#define dev_dbg(dev, fmt, ...)                                                 \
	({                                                                     \
		if (0)                                                         \
			dev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__);       \
	})
#endif
#define dev_vdbg dev_dbg
#define dev_err_once(dev, fmt, ...)                                            \
	__pk_dev_printk(printk_once, KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn_once(dev, fmt, ...)                                           \
	__pk_dev_printk(printk_once, KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define dev_info_once(dev, fmt, ...)                                           \
	__pk_dev_printk(printk_once, KERN_INFO, dev, fmt, ##__VA_ARGS__)
#define dev_notice_once(dev, fmt, ...)                                         \
	__pk_dev_printk(printk_once, KERN_NOTICE, dev, fmt, ##__VA_ARGS__)
#define dev_dbg_once(dev, fmt, ...) dev_dbg(dev, fmt, ##__VA_ARGS__)
#define dev_err_ratelimited(dev, fmt, ...)                                     \
	__pk_dev_printk(printk_ratelimited, KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define dev_warn_ratelimited(dev, fmt, ...)                                    \
	__pk_dev_printk(printk_ratelimited, KERN_WARNING, dev, fmt,            \
			##__VA_ARGS__)
#define dev_info_ratelimited(dev, fmt, ...)                                    \
	__pk_dev_printk(printk_ratelimited, KERN_INFO, dev, fmt, ##__VA_ARGS__)
#define dev_notice_ratelimited(dev, fmt, ...)                                  \
	__pk_dev_printk(printk_ratelimited, KERN_NOTICE, dev, fmt,             \
			##__VA_ARGS__)
#define dev_dbg_ratelimited(dev, fmt, ...) dev_dbg(dev, fmt, ##__VA_ARGS__)
/** dev_err_probe() - dev_err() unless @err is -EPROBE_DEFER; returns @err. */
#define dev_err_probe(dev, err, fmt, ...)                                      \
	({                                                                     \
		int __pk_err = (err);                                          \
		if (__pk_err != -EPROBE_DEFER)                                 \
			dev_err(dev, "error %d: " fmt, __pk_err,               \
				##__VA_ARGS__);                                \
		__pk_err;                                                      \
	})
#define dev_WARN(dev, fmt, ...)                                                \
	WARN(1, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define dev_WARN_ONCE(dev, cond, fmt, ...)                                     \
	WARN_ONCE(cond, "%s: " fmt, dev_name(dev), ##__VA_ARGS__)

#endif /* _LINUX_DEVICE_H */
