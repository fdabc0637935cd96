// SPDX-License-Identifier: MIT
/*
 * A program with its own definitions of kernel names the library also
 * defines: down() and up() on a semaphore of its own, as a program that
 * brings a kernel file's semaphore does.  Linked against libpreempt.a
 * (whose API is weak, cmake/static_archive.cmake) and against
 * libpreempt.so (which the executable interposes): the link succeeds and
 * the program's versions run, beside the library's machine.
 */
#include <preempt/sched.h>
#include <preempt/spinlock.h>
#include <preempt/wait.h>

#include "pk_machine.h"

/* Not the library's struct semaphore: a program's own, of another layout. */
struct semaphore {
	int count;
	unsigned long calls;
};

static DEFINE_SPINLOCK(own_lock);

void down(struct semaphore *sem);
void up(struct semaphore *sem);

void down(struct semaphore *sem)
{
	/* the library's spinlock under the program's down() */
	spin_lock(&own_lock);
	sem->count--;
	sem->calls++;
	spin_unlock(&own_lock);
}

void up(struct semaphore *sem)
{
	spin_lock(&own_lock);
	sem->count++;
	sem->calls++;
	spin_unlock(&own_lock);
}

#define ROUNDS 1000

static struct semaphore sem = {.count = 1};
static DECLARE_COMPLETION(done);

static int user(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		down(&sem);
		up(&sem);
	}
	complete(&done);
	return 0;
}

static void own_down_up_run(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	kthread_run(user, NULL, "own-sem");
	wait_for_completion(&done);
	/* The library's down() would have slept on this foreign layout. */
	assert_int_equal(sem.calls, 2 * ROUNDS);
	assert_int_equal(sem.count, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(own_down_up_run, machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
