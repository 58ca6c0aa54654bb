// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for capebus-busaddr.c: a reg becomes the addresses its bus's
 * core will register, or is refused naming the value and what is allowed.
 */

#include <kunit/test.h>
#include <linux/i2c.h>
#include <linux/of.h>
#include <dt-bindings/i2c/i2c.h>

#include "capebus-internal.h"

static const struct capebus_bus i2c7 = {
	.kind = CAPEBUS_BUS_I2C, .address_cells = 1,
};

static const struct capebus_bus i2c10 = {
	.kind = CAPEBUS_BUS_I2C, .address_cells = 1, .ten_bit = true,
};

static const struct capebus_bus spi2 = {
	.kind = CAPEBUS_BUS_SPI, .address_cells = 1, .num_cs = 2,
};

static const struct capebus_bus unnamed = {
	.kind = CAPEBUS_BUS_UNNAMED, .address_cells = 1,
};

/* @bus's reading of @cells, or its refusal in @why. */
static int addrs_of(const struct capebus_bus *bus, const u32 *cells,
		    unsigned int n, u64 *addrs, char *why)
{
	__be32 reg[CAPEBUS_BUS_MAX_ADDRS + 2];
	unsigned int i;

	for (i = 0; i < n; i++)
		reg[i] = cpu_to_be32(cells[i]);
	why[0] = '\0';
	return capebus_bus_addrs(bus, reg, n * 4, addrs, why, CAPEBUS_REASON_LEN);
}

/* @cells are refused on @bus, the reason saying @want. */
static void expect_refused(struct kunit *test, const struct capebus_bus *bus,
			   const char *want, const u32 *cells, unsigned int n)
{
	char why[CAPEBUS_REASON_LEN];
	u64 a[CAPEBUS_BUS_MAX_ADDRS];

	KUNIT_EXPECT_EQ(test, addrs_of(bus, cells, n, a, why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, want), "why: %s", why);
}

/* 0x10048 is 0x48 to the I2C core (16 bits kept): refused, both named. */
static void busaddr_test_i2c_high_bits(struct kunit *test)
{
	expect_refused(test, &i2c7,
		       "reg 0x10048 is no 7-bit I2C address (the I2C core would use 0x48); allowed: 7-bit addresses 0x01-0x7f",
		       (const u32 []){ 0x10048 }, 1);
	expect_refused(test, &i2c7, "reg 0x80 is no 7-bit",
		       (const u32 []){ 0x80 }, 1);
	expect_refused(test, &i2c7, "reg 0x0 is no 7-bit",
		       (const u32 []){ 0 }, 1);
}

/* A 7-bit address, and an I2C device's ancillary ones, each taken. */
static void busaddr_test_i2c_ok(struct kunit *test)
{
	static const u32 c[] = { 0x48, 0x7f, 0x01 };
	char why[CAPEBUS_REASON_LEN];
	u64 a[CAPEBUS_BUS_MAX_ADDRS];

	KUNIT_ASSERT_EQ(test, addrs_of(&i2c7, c, 3, a, why), 3);
	KUNIT_EXPECT_EQ(test, a[0], 0x48);
	KUNIT_EXPECT_EQ(test, a[1], 0x7f);
	KUNIT_EXPECT_EQ(test, a[2], 0x01);
}

/* 10-bit only where the adapter does it; own-slave never. */
static void busaddr_test_i2c_flags(struct kunit *test)
{
	static const u32 ten[] = { I2C_TEN_BIT_ADDRESS | 0x250 };
	char why[CAPEBUS_REASON_LEN];
	u64 a[CAPEBUS_BUS_MAX_ADDRS];

	expect_refused(test, &i2c7,
		       "reg 0x80000250 asks for 10-bit address 0x250; allowed: 7-bit addresses 0x01-0x7f (the adapter does no 10-bit addressing, or is not up)",
		       (const u32 []){ I2C_TEN_BIT_ADDRESS | 0x250 }, 1);
	KUNIT_ASSERT_EQ(test, addrs_of(&i2c10, ten, 1, a, why), 1);
	KUNIT_EXPECT_EQ(test, a[0], 0x250 | CAPEBUS_I2C_TEN_BIT_KEY);
	expect_refused(test, &i2c10, "asks for 10-bit address 0x10400",
		       (const u32 []){ I2C_TEN_BIT_ADDRESS | 0x10400 }, 1);
	expect_refused(test, &i2c10,
		       "reg 0x40000054 is an address the adapter answers at itself (I2C_OWN_SLAVE_ADDRESS)",
		       (const u32 []){ I2C_OWN_SLAVE_ADDRESS | 0x54 }, 1);
	/* a bad ancillary address refuses the node */
	expect_refused(test, &i2c7, "reg 0x10049 is no 7-bit",
		       (const u32 []){ 0x48, 0x10049 }, 2);
}

/* 0x100 and <2 0> are chip select 0 to the SPI core. */
static void busaddr_test_spi(struct kunit *test)
{
	static const u32 one[] = { 1 };
	char why[CAPEBUS_REASON_LEN];
	u64 a[CAPEBUS_BUS_MAX_ADDRS];

	expect_refused(test, &spi2,
		       "reg 0x100 is no chip select of the bus (the SPI core would use 0); allowed: one cell, a chip select 0-1",
		       (const u32 []){ 0x100 }, 1);
	expect_refused(test, &spi2,
		       "reg has 2 cells, which the SPI core takes for as many chip selects; allowed: one cell, a chip select 0-1",
		       (const u32 []){ 2, 0 }, 2);
	expect_refused(test, &spi2, "reg 0x2 is no chip select",
		       (const u32 []){ 2 }, 1);
	KUNIT_ASSERT_EQ(test, addrs_of(&spi2, one, 1, a, why), 1);
	KUNIT_EXPECT_EQ(test, a[0], 1);
}

/* A bus whose core is not known: one cell that reads alike to all. */
static void busaddr_test_unnamed(struct kunit *test)
{
	static const u32 zero[] = { 0 };
	char why[CAPEBUS_REASON_LEN];
	u64 a[CAPEBUS_BUS_MAX_ADDRS];

	expect_refused(test, &unnamed,
		       "reg 0x100 may read otherwise to its bus's core; allowed: one cell of 0x00-0x7f",
		       (const u32 []){ 0x100 }, 1);
	expect_refused(test, &unnamed, "reg has 2 cells",
		       (const u32 []){ 2, 0 }, 2);
	expect_refused(test, &unnamed, "reg 0x80000048 may read otherwise",
		       (const u32 []){ I2C_TEN_BIT_ADDRESS | 0x48 }, 1);
	KUNIT_ASSERT_EQ(test, addrs_of(&unnamed, zero, 1, a, why), 1);
	KUNIT_EXPECT_EQ(test, a[0], 0);
}

/* Sizes or two cells: the first entry, whatever its value. */
static void busaddr_test_mapped(struct kunit *test)
{
	static const struct capebus_bus sized = {
		.kind = CAPEBUS_BUS_MAPPED, .address_cells = 1, .size_cells = 1,
	};
	static const u32 c[] = { 0x80001000, 0x100, 0x2000, 0x100 };
	char why[CAPEBUS_REASON_LEN];
	u64 a[CAPEBUS_BUS_MAX_ADDRS];

	KUNIT_ASSERT_EQ(test, addrs_of(&sized, c, 4, a, why), 1);
	KUNIT_EXPECT_EQ(test, a[0], 0x80001000);
	expect_refused(test, &sized,
		       "reg of 12 bytes does not match the bus's 1 address and 1 size cells",
		       (const u32 []){ 1, 2, 3 }, 3);
}

/* The board's nodes as their core reads them: flags, 16 and 8 bits. */
static void busaddr_test_holds(struct kunit *test)
{
	const __be32 ten[] = { cpu_to_be32(I2C_TEN_BIT_ADDRESS | 0x48) };
	const __be32 anc[] = { cpu_to_be32(0x39), cpu_to_be32(0x3f) };
	const __be32 cs[] = { cpu_to_be32(0x101) };

	KUNIT_EXPECT_TRUE(test, capebus_bus_holds(&i2c7, anc, 8, 0x3f));
	KUNIT_EXPECT_FALSE(test, capebus_bus_holds(&i2c7, anc, 8, 0x40));
	KUNIT_EXPECT_FALSE(test, capebus_bus_holds(&i2c7, ten, 4, 0x48));
	KUNIT_EXPECT_TRUE(test, capebus_bus_holds(&i2c7, ten, 4,
						  0x48 | CAPEBUS_I2C_TEN_BIT_KEY));
	KUNIT_EXPECT_TRUE(test, capebus_bus_holds(&spi2, cs, 4, 1));
	KUNIT_EXPECT_TRUE(test, capebus_bus_holds(&unnamed, ten, 4, 0x48));
	KUNIT_EXPECT_FALSE(test, capebus_bus_holds(&unnamed, NULL, 0, 0));
}

/* A node @name below @parent in @cs, with the given chip-select property. */
static struct device_node *bus_node(struct kunit *test, struct of_changeset *cs,
				    struct device_node *parent, const char *name,
				    const char *cs_prop, u32 num_cs)
{
	struct device_node *np = of_changeset_create_node(cs, parent, name);

	KUNIT_ASSERT_NOT_NULL(test, np);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(cs, np, "#address-cells", 1), 0);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(cs, np, "#size-cells", 0), 0);
	if (cs_prop)
		KUNIT_ASSERT_EQ(test, of_changeset_add_prop_u32(cs, np, cs_prop, num_cs), 0);

	return np;
}

/*
 * A live bus with no adapter (a bus a cape enables, checked before it is):
 * its node's name says I2C or SPI; the McSPI's ti,spi-num-cs counts.
 */
static void busaddr_test_describe(struct kunit *test)
{
	struct device_node *top, *np[4];
	struct capebus_bus b[4] = {};
	struct of_changeset cs;
	unsigned int i;

	of_changeset_init(&cs);
	top = of_changeset_create_node(&cs, of_root, "capebus-busaddr-kunit");
	KUNIT_ASSERT_NOT_NULL(test, top);
	KUNIT_ASSERT_EQ(test, of_changeset_add_prop_string(&cs, top, "status", "disabled"), 0);
	np[0] = bus_node(test, &cs, top, "i2c@1", NULL, 0);
	np[1] = bus_node(test, &cs, top, "spi@2", "ti,spi-num-cs", 2);
	np[2] = bus_node(test, &cs, top, "spi-3", NULL, 0);
	np[3] = bus_node(test, &cs, top, "i2cmux@4", NULL, 0);
	KUNIT_ASSERT_EQ(test, of_changeset_apply(&cs), 0);
	for (i = 0; i < ARRAY_SIZE(b); i++) {
		b[i].address_cells = 1;
		capebus_bus_describe(np[i], true, &b[i]);
	}
	KUNIT_EXPECT_EQ(test, of_changeset_revert(&cs), 0);
	for (i = 0; i < ARRAY_SIZE(np); i++)
		of_node_put(np[i]);
	of_node_put(top);
	of_changeset_destroy(&cs);

	KUNIT_EXPECT_EQ(test, b[0].kind, CAPEBUS_BUS_I2C);
	KUNIT_EXPECT_FALSE(test, b[0].ten_bit);
	expect_refused(test, &b[0], "reg 0x0 is no 7-bit I2C address",
		       (const u32 []){ 0 }, 1);
	KUNIT_EXPECT_EQ(test, b[1].kind, CAPEBUS_BUS_SPI);
	KUNIT_EXPECT_EQ(test, b[1].num_cs, 2);
	expect_refused(test, &b[1], "reg 0x2 is no chip select of the bus",
		       (const u32 []){ 2 }, 1);
	KUNIT_EXPECT_EQ(test, b[2].kind, CAPEBUS_BUS_SPI);
	expect_refused(test, &b[2], "reg 0x100 is no chip select",
		       (const u32 []){ 0x100 }, 1);
	KUNIT_EXPECT_EQ(test, b[3].kind, CAPEBUS_BUS_UNNAMED);
}

static struct kunit_case capebus_busaddr_test_cases[] = {
	KUNIT_CASE(busaddr_test_i2c_high_bits),
	KUNIT_CASE(busaddr_test_i2c_ok),
	KUNIT_CASE(busaddr_test_i2c_flags),
	KUNIT_CASE(busaddr_test_spi),
	KUNIT_CASE(busaddr_test_unnamed),
	KUNIT_CASE(busaddr_test_mapped),
	KUNIT_CASE(busaddr_test_holds),
	KUNIT_CASE(busaddr_test_describe),
	{}
};

static struct kunit_suite capebus_busaddr_test_suite = {
	.name = "capebus-busaddr",
	.test_cases = capebus_busaddr_test_cases,
};

kunit_test_suite(capebus_busaddr_test_suite);
