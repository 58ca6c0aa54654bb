// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the capebus core through its public API alone: a "toy"
 * controller with a made-up header (four pins J1.1-J1.4, one rail) and a
 * made-up ID format registers two slots and capes, as a board-family module
 * other than the BeagleBone one would.  Nothing here includes a capebus
 * internal header: if a controller needed more than include/linux/capebus.h,
 * this would not build.
 */

#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/capebus.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static const char *const toy_pins[] = { "J1.1", "J1.2", "J1.3", "J1.4" };
static const char *const toy_rails[] = { "3v3" };
/* The toy connector is a GPIO nexus too: GPIO 11 is J1.1, and so on. */
static const u32 toy_gpio_codes[] = { 11, 12, 13, CAPEBUS_GPIO_NONE };

static const struct capebus_header toy_header = {
	.name		= "toy",
	.family		= "toy",
	.pin_names	= toy_pins,
	.num_pins	= ARRAY_SIZE(toy_pins),
	.rail_names	= toy_rails,
	.num_rails	= ARRAY_SIZE(toy_rails),
	.text_max	= { [CAPEBUS_PART_NUMBER] = 8 },
	.gpio_codes	= toy_gpio_codes,
};

/*
 * The toy ID format: "TOY1 <part> <version> <pin mask> <mA>", e.g.
 * "TOY1 TOY-A 0001 0x3 40": part TOY-A, version 0001, pins J1.1 and J1.2,
 * 40 mA from the 3v3 rail.
 */
static int toy_decode(struct capebus_controller *ctrl, const void *image,
		      size_t len, struct capebus_cape_info *info,
		      const void **overlay, size_t *overlay_len,
		      char *why, size_t why_len)
{
	char part[9], version[5];
	unsigned int mask, ma, pin;
	char *s;
	int n;

	s = kmemdup_nul(image, len, GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	n = sscanf(s, "TOY1 %8s %4s %x %u", part, version, &mask, &ma);
	kfree(s);
	if (n != 4 || mask >= BIT(ARRAY_SIZE(toy_pins))) {
		snprintf(why, why_len, "not a toy ID");
		return -EINVAL;
	}

	memset(info, 0, sizeof(*info));
	strscpy(info->text[CAPEBUS_PART_NUMBER], part);
	strscpy(info->text[CAPEBUS_VERSION], version);
	strscpy(info->text[CAPEBUS_BOARD_NAME], "Toy board");
	strscpy(info->format, "TOY1");
	for (pin = 0; pin < ARRAY_SIZE(toy_pins); pin++) {
		if (!(mask & BIT(pin)))
			continue;
		__set_bit(pin, info->pins);
		strscpy(info->pin_setting[pin], "gpio");
	}
	info->current_ma[0] = ma;
	*overlay = NULL;
	*overlay_len = 0;

	return 0;
}

struct toy_test {
	struct capebus_controller *ctrl;
	struct capebus_cape_info *info;
	unsigned int attached;
	unsigned int detached;
};

/*
 * What the toy connector does for a cape: nothing but counting, and it
 * refuses part TOY-NA (a pad it cannot give, say).
 */
static int toy_attach(struct capebus_controller *ctrl,
		      struct cape_device *cape, char *why, size_t why_len)
{
	struct toy_test *t = capebus_controller_get_drvdata(ctrl);

	if (!strcmp(cape_text(cape, CAPEBUS_PART_NUMBER), "TOY-NA")) {
		snprintf(why, why_len, "the toy connector cannot attach %s",
			 cape->holder);
		return -EIO;
	}
	t->attached++;
	cape->ctrl_data = t;

	return 0;
}

static void toy_detach(struct capebus_controller *ctrl,
		       struct cape_device *cape)
{
	struct toy_test *t = capebus_controller_get_drvdata(ctrl);

	/* Only for a cape attach succeeded for, and only once. */
	if (cape->ctrl_data == t)
		t->detached++;
	cape->ctrl_data = NULL;
}

/* The toy connector's overlays: "<part>-<version>.dtbo", or as the ID says. */
static int toy_overlay_name(struct capebus_controller *ctrl,
			    const struct capebus_cape_info *info, char *name,
			    size_t len)
{
	if (info->overlay_name[0])
		snprintf(name, len, "%s.dtbo", info->overlay_name);
	else
		snprintf(name, len, "%s-%s.dtbo", info->text[CAPEBUS_PART_NUMBER],
			 info->text[CAPEBUS_VERSION]);

	return 0;
}

static const struct capebus_controller_ops toy_ops = {
	.decode		= toy_decode,
	.overlay_name	= toy_overlay_name,
	.attach		= toy_attach,
	.detach		= toy_detach,
};

static int toy_test_init(struct kunit *test)
{
	static const u32 budget[] = { 100 };
	struct toy_test *t;
	struct device *dev;
	DECLARE_BITMAP(board, CAPEBUS_MAX_PINS) = { };

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->info = kunit_kzalloc(test, sizeof(*t->info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->info);

	dev = kunit_device_register(test, "capebus-toy");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);

	t->ctrl = capebus_controller_alloc(dev, &toy_header, &toy_ops, 2);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->ctrl);
	capebus_controller_set_drvdata(t->ctrl, t);
	__set_bit(3, board);		/* J1.4: the board's own */
	KUNIT_ASSERT_EQ(test, capebus_controller_set_resources(t->ctrl, budget,
							       board, NULL), 0);
	KUNIT_ASSERT_EQ(test, capebus_controller_register(t->ctrl), 0);
	test->priv = t;

	return 0;
}

static void toy_test_exit(struct kunit *test)
{
	struct toy_test *t = test->priv;

	capebus_controller_unregister(t->ctrl);
	capebus_controller_put(t->ctrl);
}

static struct cape_device *toy_add(struct kunit *test, const char *id,
				   unsigned int slot, char *why)
{
	struct toy_test *t = test->priv;
	struct capebus_cape_desc desc = { .info = t->info, .slot = slot };
	const void *overlay;
	size_t overlay_len;

	KUNIT_ASSERT_EQ(test, toy_decode(t->ctrl, id, strlen(id), t->info,
					 &overlay, &overlay_len, why,
					 CAPEBUS_REASON_LEN), 0);

	return capebus_cape_add(t->ctrl, &desc, why, CAPEBUS_REASON_LEN);
}

static void toy_test_add_remove(struct kunit *test)
{
	struct toy_test *t = test->priv;
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *cape;

	cape = toy_add(test, "TOY1 TOY-A 0001 0x3 40", 0, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cape);
	KUNIT_EXPECT_STREQ(test, why, "");
	KUNIT_EXPECT_TRUE(test, device_is_registered(&cape->dev));
	KUNIT_EXPECT_NOT_NULL(test, strstr(dev_name(&cape->dev), "-slot0"));
	KUNIT_EXPECT_STREQ(test, cape_text(cape, CAPEBUS_PART_NUMBER), "TOY-A");
	KUNIT_EXPECT_STREQ(test, cape_text(cape, CAPEBUS_VERSION), "0001");
	KUNIT_EXPECT_STREQ(test, cape->info->format, "TOY1");
	KUNIT_EXPECT_STREQ(test, cape->holder, "TOY-A (slot 0)");
	/* No overlay, no driver: the generic driver does not take it. */
	KUNIT_EXPECT_NULL(test, cape->dev.driver);
	KUNIT_EXPECT_EQ(test, capebus_slot_state(capebus_slot(t->ctrl, 0)),
			CAPEBUS_SLOT_DETECTED);
	KUNIT_EXPECT_STREQ(test, cape->overlay_source, "none");
	KUNIT_EXPECT_STREQ(test, cape->overlay_file, "TOY-A-0001.dtbo");
	KUNIT_EXPECT_STREQ(test, cape_family(cape), "toy");

	capebus_cape_remove(cape);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&cape->dev));
	capebus_cape_put(cape);
	KUNIT_EXPECT_PTR_EQ(test, capebus_slot(t->ctrl, 2), NULL);
}

static void toy_test_pin_conflict(struct kunit *test)
{
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *a, *b;

	a = toy_add(test, "TOY1 TOY-A 0001 0x3 40", 0, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);

	b = toy_add(test, "TOY1 TOY-B 0001 0x6 10", 1, why);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EBUSY);
	KUNIT_EXPECT_STREQ(test, why, "pin J1.2 is held by TOY-A (slot 0)");

	b = toy_add(test, "TOY1 TOY-B 0001 0x8 10", 1, why);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EBUSY);
	KUNIT_EXPECT_STREQ(test, why, "pin J1.4 is held by the board");

	/* Once A is gone its pins are free. */
	capebus_cape_remove(a);
	capebus_cape_put(a);
	b = toy_add(test, "TOY1 TOY-B 0001 0x6 10", 1, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	capebus_cape_put(b);
}

static void toy_test_budget(struct kunit *test)
{
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *a, *b;

	a = toy_add(test, "TOY1 TOY-A 0001 0x1 60", 0, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_EXPECT_FALSE(test, a->over_budget);
	/* Over budget is reported, not refused (strict_budget=0). */
	b = toy_add(test, "TOY1 TOY-B 0001 0x2 50", 1, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_TRUE(test, b->over_budget);
	KUNIT_EXPECT_STREQ(test, b->budget_why,
			   "3v3 over budget: needs 50 mA, 60 of 100 mA in use");
	capebus_cape_put(b);
	capebus_cape_put(a);
}

static void toy_test_virtual_slots(struct kunit *test)
{
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *a, *b;

	a = toy_add(test, "TOY1 TOY-A 0001 0x1 0", CAPEBUS_SLOT_ANY_VIRTUAL, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = toy_add(test, "TOY1 TOY-B 0001 0x2 0", CAPEBUS_SLOT_ANY_VIRTUAL, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	/* Virtual slots are numbered from the controller's number of slots. */
	KUNIT_EXPECT_EQ(test, a->slot_nr, 2);
	KUNIT_EXPECT_EQ(test, b->slot_nr, 3);
	KUNIT_EXPECT_PTR_EQ(test, a->slot, NULL);
	capebus_cape_put(a);
	capebus_cape_put(b);
}

static void toy_test_detected(struct kunit *test)
{
	struct toy_test *t = test->priv;
	struct capebus_slot *slot = capebus_slot(t->ctrl, 1);
	static const char id[] = "TOY1 TOY-D 0002 0x4 5";
	char why[CAPEBUS_REASON_LEN];
	const void *overlay;
	size_t overlay_len;

	KUNIT_ASSERT_EQ(test, toy_decode(t->ctrl, id, strlen(id), t->info,
					 &overlay, &overlay_len, why,
					 sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, capebus_slot_detected(slot, t->info, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, capebus_slot_state(slot), CAPEBUS_SLOT_DETECTED);
	/*
	 * A second cape in a slot that holds one is refused, as no other
	 * refusal is: the controller's log says the slot is taken.
	 */
	KUNIT_EXPECT_EQ(test, capebus_slot_detected(slot, t->info, NULL, 0),
			-EEXIST);

	capebus_slot_set_failed(capebus_slot(t->ctrl, 0), "no %s", "luck");
	KUNIT_EXPECT_EQ(test, capebus_slot_state(capebus_slot(t->ctrl, 0)),
			CAPEBUS_SLOT_FAILED);
	capebus_slot_set_empty(capebus_slot(t->ctrl, 0));
	KUNIT_EXPECT_EQ(test, capebus_slot_state(capebus_slot(t->ctrl, 0)),
			CAPEBUS_SLOT_EMPTY);

	/* The EEPROM went away: its cape goes; a cape read again is added. */
	capebus_slot_set_empty(slot);
	KUNIT_EXPECT_EQ(test, capebus_slot_state(slot), CAPEBUS_SLOT_EMPTY);
	KUNIT_EXPECT_EQ(test, capebus_slot_detected(slot, t->info, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, capebus_slot_state(slot), CAPEBUS_SLOT_DETECTED);
}

static void toy_test_unregistered(struct kunit *test)
{
	struct toy_test *t = test->priv;
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *a, *b;

	a = toy_add(test, "TOY1 TOY-A 0001 0x1 0", 0, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);

	/* The controller takes its capes with it; later adds are refused. */
	capebus_controller_unregister(t->ctrl);
	KUNIT_EXPECT_FALSE(test, device_is_registered(&a->dev));
	KUNIT_EXPECT_EQ(test, t->detached, 1);
	capebus_cape_remove(a);		/* already gone: nothing happens */
	KUNIT_EXPECT_EQ(test, t->detached, 1);
	capebus_cape_put(a);
	b = toy_add(test, "TOY1 TOY-B 0001 0x2 0", 1, why);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -ENODEV);

	/* toy_test_exit() unregisters and puts: give it a fresh controller. */
	capebus_controller_put(t->ctrl);
	t->ctrl = capebus_controller_alloc(NULL, &toy_header, NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->ctrl);
	KUNIT_ASSERT_EQ(test, capebus_controller_register(t->ctrl), 0);
}

/*
 * The platform compatibles a controller takes: none empty, and only before
 * it is registered (the overlay notifier reads them without a lock).
 */
static void toy_test_platform_compatibles(struct kunit *test)
{
	struct toy_test *t = test->priv;
	struct capebus_controller *ctrl;

	ctrl = capebus_controller_alloc(NULL, &toy_header, NULL, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctrl);
	KUNIT_EXPECT_EQ(test, capebus_controller_add_platform_compatible(ctrl, ""),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, capebus_controller_add_platform_compatible(ctrl, "gpio-leds"),
			0);
	KUNIT_EXPECT_EQ(test, capebus_controller_add_platform_compatible(ctrl, "w1-gpio"),
			0);
	capebus_controller_put(ctrl);

	KUNIT_EXPECT_EQ(test, capebus_controller_add_platform_compatible(t->ctrl, "gpio-leds"),
			-EBUSY);
}

static void toy_test_attach_detach(struct kunit *test)
{
	struct toy_test *t = test->priv;
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *a, *b;

	a = toy_add(test, "TOY1 TOY-A 0001 0x1 10", 0, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_EXPECT_EQ(test, t->attached, 1);
	KUNIT_EXPECT_TRUE(test, a->attached);
	KUNIT_EXPECT_PTR_EQ(test, a->ctrl_data, (void *)t);
	KUNIT_EXPECT_EQ(test, t->detached, 0);

	/* Refused by the pin claim: the connector is never asked. */
	b = toy_add(test, "TOY1 TOY-B 0001 0x1 10", 1, why);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EBUSY);
	KUNIT_EXPECT_EQ(test, t->attached, 1);
	KUNIT_EXPECT_EQ(test, t->detached, 0);

	/* Removed: detached once, and not again on a second removal. */
	capebus_cape_remove(a);
	KUNIT_EXPECT_EQ(test, t->detached, 1);
	KUNIT_EXPECT_FALSE(test, a->attached);
	capebus_cape_remove(a);
	KUNIT_EXPECT_EQ(test, t->detached, 1);
	capebus_cape_put(a);
}

/* The pins a connector may put back: those nothing in the table holds. */
static void toy_test_pins_unheld(struct kunit *test)
{
	struct toy_test *t = test->priv;
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS);
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *a;

	a = toy_add(test, "TOY1 TOY-A 0001 0x1 10", 0, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	bitmap_fill(pins, CAPEBUS_MAX_PINS);
	capebus_controller_pins_unheld(t->ctrl, pins);
	/* J1.1 the cape's, J1.4 the board's, none past the header's pins. */
	KUNIT_EXPECT_FALSE(test, test_bit(0, pins));
	KUNIT_EXPECT_TRUE(test, test_bit(1, pins));
	KUNIT_EXPECT_FALSE(test, test_bit(3, pins));
	KUNIT_EXPECT_EQ(test, bitmap_weight(pins, CAPEBUS_MAX_PINS),
			toy_header.num_pins - 2);

	capebus_cape_remove(a);
	bitmap_fill(pins, CAPEBUS_MAX_PINS);
	capebus_controller_pins_unheld(t->ctrl, pins);
	KUNIT_EXPECT_TRUE(test, test_bit(0, pins));
	KUNIT_EXPECT_FALSE(test, test_bit(3, pins));
	capebus_cape_put(a);

	/* No connector node: nowhere to keep the board's pad values. */
	KUNIT_EXPECT_NULL(test, capebus_controller_board_pads(t->ctrl));
}

static void toy_test_attach_refuses(struct kunit *test)
{
	struct toy_test *t = test->priv;
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *a, *b;

	/* The connector's refusal is the cape's: its reason, no detach. */
	a = toy_add(test, "TOY1 TOY-NA 0001 0x3 90", 0, why);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(a), -EIO);
	KUNIT_EXPECT_STREQ(test, why,
			   "the toy connector cannot attach TOY-NA (slot 0)");
	KUNIT_EXPECT_EQ(test, t->detached, 0);
	KUNIT_EXPECT_EQ(test, capebus_slot_state(capebus_slot(t->ctrl, 0)),
			CAPEBUS_SLOT_EMPTY);

	/* Its pins and current were given back. */
	b = toy_add(test, "TOY1 TOY-B 0001 0x3 90", 0, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_EQ(test, t->attached, 1);
	capebus_cape_remove(b);
	capebus_cape_put(b);
	KUNIT_EXPECT_EQ(test, t->detached, 1);
}

static void toy_test_bad_header(struct kunit *test)
{
	static const struct capebus_header big = {
		.name = "big", .family = "big", .pin_names = toy_pins,
		.num_pins = CAPEBUS_MAX_PINS + 1,
	};
	static const char *const bad_families[] = {
		"", "Toy", "toy:1", "a-family-name-too-long", "toy/1",
	};
	struct capebus_header h = toy_header;
	unsigned int i;

	KUNIT_EXPECT_EQ(test,
			PTR_ERR_OR_ZERO(capebus_controller_alloc(NULL, &big, NULL, 1)),
			-EINVAL);
	/* A family is required, and a word MODALIAS shows as it is. */
	h.family = NULL;
	KUNIT_EXPECT_EQ(test,
			PTR_ERR_OR_ZERO(capebus_controller_alloc(NULL, &h, NULL, 1)),
			-EINVAL);
	for (i = 0; i < ARRAY_SIZE(bad_families); i++) {
		h.family = bad_families[i];
		KUNIT_EXPECT_EQ_MSG(test,
				    PTR_ERR_OR_ZERO(capebus_controller_alloc(NULL, &h, NULL, 1)),
				    -EINVAL, "family \"%s\"", bad_families[i]);
	}
	KUNIT_EXPECT_EQ(test, capebus_header_pin_index(&toy_header, "J1.3"), 2);
	KUNIT_EXPECT_EQ(test, capebus_header_pin_index(&toy_header, "J1.5"),
			-EINVAL);
}

/*
 * The core keeps its own copy of the header, names and codes included: a
 * controller may outlive its module's data (configfs keeps it while capes
 * are declared).  A header whose memory is scribbled over and freed right
 * after the allocation still names the pins in a refusal.
 */
static void toy_test_header_copied(struct kunit *test)
{
	struct toy_test *t = test->priv;
	char why[CAPEBUS_REASON_LEN];
	struct capebus_header *h;
	struct cape_device *a, *b;
	unsigned int i;
	char **names;

	h = kmemdup(&toy_header, sizeof(*h), GFP_KERNEL);
	names = kcalloc(ARRAY_SIZE(toy_pins), sizeof(*names), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_NOT_NULL(test, names);
	for (i = 0; i < ARRAY_SIZE(toy_pins); i++) {
		names[i] = kstrdup(toy_pins[i], GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, names[i]);
	}
	h->pin_names = (const char *const *)names;

	/* toy_test_exit() unregisters and puts t->ctrl: this one. */
	capebus_controller_unregister(t->ctrl);
	capebus_controller_put(t->ctrl);
	t->ctrl = capebus_controller_alloc(NULL, h, &toy_ops, 2);
	for (i = 0; i < ARRAY_SIZE(toy_pins); i++) {
		memset(names[i], 'x', strlen(names[i]));
		kfree(names[i]);
	}
	kfree(names);
	memset(h, 0, sizeof(*h));
	kfree(h);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->ctrl);
	capebus_controller_set_drvdata(t->ctrl, t);
	KUNIT_ASSERT_EQ(test, capebus_controller_register(t->ctrl), 0);

	a = toy_add(test, "TOY1 TOY-A 0001 0x3 40", 0, why);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = toy_add(test, "TOY1 TOY-B 0001 0x6 10", 1, why);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EBUSY);
	KUNIT_EXPECT_STREQ(test, why, "pin J1.2 is held by TOY-A (slot 0)");
	capebus_cape_put(a);

	/* The GPIO codes, by the header a module describes. */
	KUNIT_EXPECT_EQ(test, capebus_header_gpio_pin(&toy_header, 12), 1);
	KUNIT_EXPECT_EQ(test, capebus_header_gpio_pin(&toy_header, 14), -ENOENT);
	KUNIT_EXPECT_EQ(test, capebus_header_gpio_pin(&toy_header,
						      CAPEBUS_GPIO_NONE), -ENOENT);
}

/* What a toy cape driver's probe saw of its own slot. */
static int toy_probe_state = -1;

static int toy_driver_probe(struct cape_device *cape,
			    const struct cape_device_id *id)
{
	toy_probe_state = capebus_slot_state(cape->slot);

	return 0;
}

static const struct cape_device_id toy_driver_ids[] = {
	{ CAPE_DEVICE("toy", "TOY-P") },
	{ }
};

static struct capebus_driver toy_driver = {
	.probe		= toy_driver_probe,
	.id_table	= toy_driver_ids,
	.driver		= {
		.name	= "capebus-toy",
	},
};

/* The same part number in another family: a driver of its own. */
static int toy_other_probed;

static int toy_other_probe(struct cape_device *cape,
			   const struct cape_device_id *id)
{
	toy_other_probed++;

	return 0;
}

static const struct cape_device_id toy_other_ids[] = {
	{ CAPE_DEVICE("other", "TOY-P") },
	/* No family: matches nothing. */
	{ .part_number = "TOY-P" },
	{ }
};

static struct capebus_driver toy_other_driver = {
	.probe		= toy_other_probe,
	.id_table	= toy_other_ids,
	.driver		= {
		.name	= "capebus-toy-other",
	},
};

/*
 * A driver binds the capes of its family only: another family's cape with
 * the same part number is not its (and no driver's here).
 */
static void toy_test_family_match(struct kunit *test)
{
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *cape;

	KUNIT_ASSERT_EQ(test, capebus_driver_register(&toy_other_driver), 0);
	toy_other_probed = 0;
	cape = toy_add(test, "TOY1 TOY-P 0001 0x1 0", 0, why);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, cape);
	KUNIT_EXPECT_EQ(test, toy_other_probed, 0);
	if (!IS_ERR(cape)) {
		KUNIT_EXPECT_NULL(test, cape->dev.driver);
		capebus_cape_remove(cape);
		capebus_cape_put(cape);
	}
	capebus_driver_unregister(&toy_other_driver);
}

/*
 * The pins a controller's attach may set: the cape's own and those
 * declared besides; the numeric identity and the overlay the ID names
 * are the controller's to fill and kept as it filled them.
 */
static void toy_test_pins_and_ids(struct kunit *test)
{
	static const uuid_t uuid = UUID_INIT(0x12345678, 0x9abc, 0xdef0, 0x01,
					     0x23, 0x45, 0x67, 0x89, 0xab,
					     0xcd, 0xef);
	struct toy_test *t = test->priv;
	DECLARE_BITMAP(extra, CAPEBUS_MAX_PINS) = { };
	DECLARE_BITMAP(pins, CAPEBUS_MAX_PINS) = { };
	struct capebus_cape_desc desc = { };
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *cape;

	memset(t->info, 0, sizeof(*t->info));
	strscpy(t->info->text[CAPEBUS_PART_NUMBER], "TOY-ID");
	__set_bit(0, t->info->pins);
	t->info->ids = CAPEBUS_ID_UUID | CAPEBUS_ID_PRODUCT;
	t->info->uuid = uuid;
	t->info->product_id = 0x42;
	strscpy(t->info->overlay_name, "toy-named");
	__set_bit(2, extra);
	desc.info = t->info;
	desc.slot = CAPEBUS_SLOT_ANY_VIRTUAL;
	desc.extra_pins = extra;
	cape = capebus_cape_add(t->ctrl, &desc, why, sizeof(why));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cape);
	capebus_cape_pins(cape, pins);
	KUNIT_EXPECT_TRUE(test, test_bit(0, pins));
	KUNIT_EXPECT_FALSE(test, test_bit(1, pins));
	KUNIT_EXPECT_TRUE(test, test_bit(2, pins));
	KUNIT_EXPECT_TRUE(test, uuid_equal(&cape->info->uuid, &uuid));
	KUNIT_EXPECT_EQ(test, cape->info->product_id, 0x42);
	KUNIT_EXPECT_STREQ(test, cape->overlay_file, "toy-named.dtbo");
	capebus_cape_remove(cape);
	capebus_cape_put(cape);
}

/*
 * A driver's probe may read its own slot's state: the core adds a cape
 * (and so probes it) without the lock that state readers take.
 */
static void toy_test_probe_reads_state(struct kunit *test)
{
	struct toy_test *t = test->priv;
	char why[CAPEBUS_REASON_LEN];
	struct cape_device *cape;

	KUNIT_ASSERT_EQ(test, capebus_driver_register(&toy_driver), 0);
	toy_probe_state = -1;
	cape = toy_add(test, "TOY1 TOY-P 0001 0x1 0", 0, why);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, cape);
	/* While the probe runs, the cape is not loaded yet. */
	KUNIT_EXPECT_EQ(test, toy_probe_state, CAPEBUS_SLOT_DETECTED);
	KUNIT_EXPECT_EQ(test, capebus_slot_state(capebus_slot(t->ctrl, 0)),
			CAPEBUS_SLOT_LOADED);
	if (!IS_ERR(cape)) {
		capebus_cape_remove(cape);
		capebus_cape_put(cape);
	}
	capebus_driver_unregister(&toy_driver);
}

static struct kunit_case toy_test_cases[] = {
	KUNIT_CASE(toy_test_add_remove),
	KUNIT_CASE(toy_test_pin_conflict),
	KUNIT_CASE(toy_test_budget),
	KUNIT_CASE(toy_test_virtual_slots),
	KUNIT_CASE(toy_test_detected),
	KUNIT_CASE(toy_test_unregistered),
	KUNIT_CASE(toy_test_platform_compatibles),
	KUNIT_CASE(toy_test_attach_detach),
	KUNIT_CASE(toy_test_pins_unheld),
	KUNIT_CASE(toy_test_attach_refuses),
	KUNIT_CASE(toy_test_bad_header),
	KUNIT_CASE(toy_test_header_copied),
	KUNIT_CASE(toy_test_probe_reads_state),
	KUNIT_CASE(toy_test_family_match),
	KUNIT_CASE(toy_test_pins_and_ids),
	{}
};

static struct kunit_suite toy_test_suite = {
	.name = "capebus-controller",
	.init = toy_test_init,
	.exit = toy_test_exit,
	.test_cases = toy_test_cases,
};

kunit_test_suite(toy_test_suite);
