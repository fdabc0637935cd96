// SPDX-License-Identifier: MIT
/*
 * Device-managed resources, minimal (linux/device.h): a list per device
 * of actions to run when its driver is detached, newest first.  One lock
 * for every device's list: adding and releasing are rare and short, and
 * struct device needs no initializer for it.  The actions run outside
 * the lock (they free, unregister, sleep).
 */

#include <linux/device.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

struct pk_devres {
	struct list_head node;
	void (*action)(void *data);
	void *data;
};

static DEFINE_SPINLOCK(pk_devres_lock);

/* A zeroed struct device has an empty list; make it a real one. */
static void pk_devres_init(struct device *dev)
{
	lockdep_assert_held(&pk_devres_lock);
	if (!dev->devres_head.next)
		INIT_LIST_HEAD(&dev->devres_head);
}

static int pk_devres_add(struct device *dev, void (*action)(void *), void *data,
			 gfp_t gfp)
{
	struct pk_devres *dr = kmalloc(sizeof(*dr), gfp);

	if (!dr)
		return -ENOMEM;
	dr->action = action;
	dr->data = data;
	spin_lock(&pk_devres_lock);
	pk_devres_init(dev);
	list_add(&dr->node, &dev->devres_head);
	spin_unlock(&pk_devres_lock);
	return 0;
}

int devm_add_action(struct device *dev, void (*action)(void *), void *data)
{
	return pk_devres_add(dev, action, data, GFP_KERNEL);
}

/* Unlinks the newest entry for (@action, @data); NULL if there is none. */
static struct pk_devres *
pk_devres_take(struct device *dev, void (*action)(void *), const void *data)
{
	struct pk_devres *found = NULL;
	struct list_head *pos;

	spin_lock(&pk_devres_lock);
	pk_devres_init(dev);
	list_for_each(pos, &dev->devres_head)
	{
		struct pk_devres *dr = list_entry(pos, struct pk_devres, node);

		if (dr->action == action && dr->data == data) {
			list_del(&dr->node);
			found = dr;
			break;
		}
	}
	spin_unlock(&pk_devres_lock);
	WARN(!found, "%s: no such managed resource\n", dev_name(dev));
	return found;
}

void devm_remove_action(struct device *dev, void (*action)(void *), void *data)
{
	kfree(pk_devres_take(dev, action, data));
}

void devm_release_action(struct device *dev, void (*action)(void *), void *data)
{
	struct pk_devres *dr = pk_devres_take(dev, action, data);

	if (dr)
		action(data);
	kfree(dr);
}

static void pk_devres_kfree(void *p)
{
	kfree(p);
}

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp)
{
	void *p = kmalloc(size, gfp);

	if (p && pk_devres_add(dev, pk_devres_kfree, p, gfp)) {
		kfree(p);
		p = NULL;
	}
	return p;
}

void devm_kfree(struct device *dev, const void *p)
{
	devm_release_action(dev, pk_devres_kfree, (void *)p);
}

void device_release_driver(struct device *dev)
{
	LIST_HEAD(list);
	struct pk_devres *dr, *tmp;

	might_sleep();
	spin_lock(&pk_devres_lock);
	pk_devres_init(dev);
	list_splice_init(&dev->devres_head, &list);
	spin_unlock(&pk_devres_lock);
	/* Newest first: a resource may depend on those added before it. */
	list_for_each_entry_safe(dr, tmp, &list, node)
	{
		dr->action(dr->data);
		kfree(dr);
	}
	dev->driver = NULL;
}
