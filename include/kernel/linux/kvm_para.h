/* SPDX-License-Identifier: MIT */
#ifndef __LINUX_KVM_PARA_H
#define __LINUX_KVM_PARA_H
/* Paravirtual KVM features: the machine is not a KVM guest. */
#include <linux/types.h>
#define kvm_para_available() false
#define kvm_para_has_feature(feature) ((void)(feature), false)
#define kvm_check_and_clear_guest_paused() false
#endif
