// SPDX-License-Identifier: GPL-2.0
/*
 * capebus: a bus address as the bus's core will use it.
 *
 * A node's reg on a bus of one address cell and no size is read by the core
 * of that bus, each its own way.  The I2C core (of_i2c_get_board_info())
 * takes bit 31 for a 10-bit address (I2C_TEN_BIT_ADDRESS) and bit 30 for
 * one the adapter answers at itself (I2C_OWN_SLAVE_ADDRESS), keeps 16 bits
 * of the rest, and reads further entries as ancillary addresses
 * (i2c_new_ancillary_device()); the SPI core (of_spi_parse_dt()) reads up
 * to four cells as chip selects of 8 bits.  So to the cores 0x10048 is
 * 0x48, and 0x100 and <2 0> are chip select 0.  The overlay rule compares
 * the addresses capes claim: here a reg becomes the addresses its core
 * will register, or is refused if the core would read it otherwise.
 *
 * Which core reads a bus's reg is chosen by the driver bound to the bus's
 * node.  capebus_bus_describe() names it where the live tree says so: an
 * I2C adapter registered for the node; before its driver is up (a bus a
 * cape enables is enabled only once the overlay has passed the rules) the
 * node's name as its binding gives it (i2c@..., spi@...); a node that
 * states its chip selects.  On a bus it cannot name (a bus of the cape's
 * own nodes) the address must be the same to every core: one cell of
 * 0-0x7f.
 */

#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/of.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <dt-bindings/i2c/i2c.h>

#include "capebus-internal.h"

/* The most chip selects the SPI core reads: a u8, 0xff meaning none. */
#define CAPEBUS_SPI_MAX_CS	0xfe

/*
 * Is @np named as a controller of @bus (i2c-controller.yaml's and
 * spi-controller.yaml's $nodename: "i2c", "i2c@...", "i2c-...")?
 */
static bool capebus_bus_named(const struct device_node *np, const char *bus)
{
	const char *name = kbasename(np->full_name);
	size_t len = strlen(bus);

	return !strncmp(name, bus, len) &&
	       (!name[len] || name[len] == '@' || name[len] == '-');
}

/**
 * capebus_bus_describe - which core reads the addresses of @np's children
 * @np: the bus node, with its #address-cells and #size-cells read by the
 *	caller into @bus
 * @live: @np is a node of the live tree (a cape target), not one of the
 *	overlay's: what its driver and properties say can be trusted
 * @bus: filled in
 */
void capebus_bus_describe(struct device_node *np, bool live,
			  struct capebus_bus *bus)
{
	u32 num_cs = 0;
	int n;

	if (bus->size_cells || bus->address_cells != 1 ||
	    (live && of_node_check_flag(np, OF_POPULATED_BUS))) {
		bus->kind = CAPEBUS_BUS_MAPPED;
		return;
	}
	bus->kind = CAPEBUS_BUS_UNNAMED;
	if (!live)
		return;
#if IS_REACHABLE(CONFIG_I2C)
	{
		struct i2c_adapter *adap = of_find_i2c_adapter_by_node(np);

		if (adap) {
			bus->kind = CAPEBUS_BUS_I2C;
			bus->ten_bit = i2c_check_functionality(adap,
							       I2C_FUNC_10BIT_ADDR);
			put_device(&adap->dev);
			return;
		}
	}
#endif
	/* No adapter yet: 10-bit addresses wait until it says it does them. */
	if (capebus_bus_named(np, "i2c")) {
		bus->kind = CAPEBUS_BUS_I2C;
		return;
	}
	/*
	 * As the SPI core counts them: the larger of the two (spi.c); the
	 * McSPI's driver reads its own property.  An SPI controller that
	 * states none: the SPI core's bound, its driver checks its own.
	 */
	if (of_property_read_u32(np, "num-cs", &num_cs))
		of_property_read_u32(np, "ti,spi-num-cs", &num_cs);
	n = of_count_phandle_with_args(np, "cs-gpios", "#gpio-cells");
	if (n > 0)
		num_cs = max_t(u32, num_cs, n);
	if (num_cs || capebus_bus_named(np, "spi")) {
		bus->kind = CAPEBUS_BUS_SPI;
		bus->num_cs = num_cs ?: CAPEBUS_SPI_MAX_CS + 1;
	}
}
EXPORT_SYMBOL_IF_KUNIT(capebus_bus_describe);

/* What an address on @bus may be, for a refusal. */
static void capebus_bus_allowed(const struct capebus_bus *bus, char *buf,
				size_t len)
{
	switch (bus->kind) {
	case CAPEBUS_BUS_I2C:
		snprintf(buf, len, "7-bit addresses 0x01-0x7f%s",
			 bus->ten_bit ? ", or 10-bit 0x000-0x3ff with bit 31 set" :
					" (the adapter does no 10-bit addressing, or is not up)");
		break;
	case CAPEBUS_BUS_SPI:
		snprintf(buf, len, "one cell, a chip select 0-%u", bus->num_cs - 1);
		break;
	default:
		snprintf(buf, len,
			 "one cell of 0x00-0x7f (its bus's core is not known: no 10-bit I2C)");
		break;
	}
}

/*
 * The I2C core's address for @cell, encoded as it compares them
 * (i2c_encode_flags_to_addr()), or -EINVAL with the reason in @why.
 */
static int capebus_i2c_addr(const struct capebus_bus *bus, u32 cell, u64 *addr,
			    char *why, size_t why_len)
{
	char allowed[160];

	capebus_bus_allowed(bus, allowed, sizeof(allowed));
	if (cell & I2C_OWN_SLAVE_ADDRESS) {
		snprintf(why, why_len,
			 "reg %#x is an address the adapter answers at itself (I2C_OWN_SLAVE_ADDRESS); allowed: %s",
			 cell, allowed);
		return -EINVAL;
	}
	if (cell & I2C_TEN_BIT_ADDRESS) {
		cell &= ~I2C_TEN_BIT_ADDRESS;
		if (!bus->ten_bit || cell > 0x3ff) {
			snprintf(why, why_len,
				 "reg %#x asks for 10-bit address %#x; allowed: %s",
				 cell | I2C_TEN_BIT_ADDRESS, cell, allowed);
			return -EINVAL;
		}
		*addr = cell | CAPEBUS_I2C_TEN_BIT_KEY;
		return 0;
	}
	if (!cell || cell > 0x7f) {
		snprintf(why, why_len,
			 "reg %#x is no 7-bit I2C address (the I2C core would use %#x); allowed: %s",
			 cell, cell & 0xffff, allowed);
		return -EINVAL;
	}
	*addr = cell;
	return 0;
}

/**
 * capebus_bus_addrs - the addresses a node's reg takes on its bus
 * @bus: the bus (capebus_bus_describe())
 * @reg: the node's reg
 * @len: bytes at @reg
 * @addrs: filled with the addresses, as the bus's core will compare them
 * @why: the reason for a refusal, naming the value and what is allowed
 * @why_len: bytes at @why
 *
 * Every address is one the core will register unchanged: an I2C device's
 * each entry (its ancillary addresses too), one chip select, or on a bus
 * whose core is not known one cell that reads the same to every core.  On
 * a bus with sizes, or two address cells, the first entry's address.
 *
 * Return: the number of addresses (1 to %CAPEBUS_BUS_MAX_ADDRS), or
 * -EINVAL with @why set.
 */
int capebus_bus_addrs(const struct capebus_bus *bus, const __be32 *reg,
		      int len, u64 *addrs, char *why, size_t why_len)
{
	u32 ac = bus->address_cells, sc = bus->size_cells;
	char allowed[160];
	unsigned int n, i;
	int ret;

	if (!ac || ac > 2 || sc > CAPEBUS_FDT_MAX_SIZE_CELLS || len <= 0 ||
	    len % (4 * (ac + sc))) {
		snprintf(why, why_len,
			 "reg of %d bytes does not match the bus's %u address and %u size cells",
			 len, ac, sc);
		return -EINVAL;
	}
	if (bus->kind == CAPEBUS_BUS_MAPPED) {
		addrs[0] = ac == 2 ? (u64)be32_to_cpu(reg[0]) << 32 |
				     be32_to_cpu(reg[1]) :
				     be32_to_cpu(reg[0]);
		return 1;
	}

	n = len / 4;
	capebus_bus_allowed(bus, allowed, sizeof(allowed));
	if (bus->kind != CAPEBUS_BUS_I2C && n != 1) {
		snprintf(why, why_len,
			 "reg has %u cells, which %s; allowed: %s", n,
			 bus->kind == CAPEBUS_BUS_SPI ?
			 "the SPI core takes for as many chip selects" :
			 "a bus core may take for as many addresses",
			 allowed);
		return -EINVAL;
	}
	if (n > CAPEBUS_BUS_MAX_ADDRS) {
		snprintf(why, why_len, "reg has %u addresses, more than the %u a device may have",
			 n, CAPEBUS_BUS_MAX_ADDRS);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		u32 cell = be32_to_cpu(reg[i]);

		switch (bus->kind) {
		case CAPEBUS_BUS_I2C:
			ret = capebus_i2c_addr(bus, cell, &addrs[i], why, why_len);
			if (ret)
				return ret;
			break;
		case CAPEBUS_BUS_SPI:
			if (cell >= bus->num_cs || cell > CAPEBUS_SPI_MAX_CS) {
				snprintf(why, why_len,
					 "reg %#x is no chip select of the bus (the SPI core would use %u); allowed: %s",
					 cell, cell & 0xff, allowed);
				return -EINVAL;
			}
			addrs[i] = cell;
			break;
		default:
			if (cell > 0x7f) {
				snprintf(why, why_len,
					 "reg %#x may read otherwise to its bus's core; allowed: %s",
					 cell, allowed);
				return -EINVAL;
			}
			addrs[i] = cell;
			break;
		}
	}

	return n;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_bus_addrs);

/**
 * capebus_bus_holds - does a live node's reg take @addr on @bus?
 * @bus: the bus (capebus_bus_describe())
 * @reg: the board node's reg, or NULL
 * @len: bytes at @reg
 * @addr: an address as capebus_bus_addrs() gives it
 *
 * The board's nodes are not refused: each entry is read as its core will
 * read it (the I2C core's flags and 16 bits, the SPI core's 8), and on a
 * bus whose core is not known, every entry without its I2C flag bits.
 *
 * Return: true if one of its addresses is @addr.
 */
bool capebus_bus_holds(const struct capebus_bus *bus, const __be32 *reg,
		       int len, u64 addr)
{
	u32 ac = bus->address_cells;
	int i, n;

	if (!reg || !ac || ac > 2 || len < 4 * (int)ac)
		return false;
	if (bus->kind == CAPEBUS_BUS_MAPPED)
		return addr == (ac == 2 ? (u64)be32_to_cpu(reg[0]) << 32 |
					  be32_to_cpu(reg[1]) :
					  be32_to_cpu(reg[0]));

	n = min(len / 4, CAPEBUS_BUS_MAX_ADDRS);
	for (i = 0; i < n; i++) {
		u32 cell = be32_to_cpu(reg[i]);
		u64 a;

		switch (bus->kind) {
		case CAPEBUS_BUS_I2C:
			if (cell & I2C_OWN_SLAVE_ADDRESS)
				continue;	/* the adapter's own, no client */
			a = cell & I2C_TEN_BIT_ADDRESS ?
			    (cell & 0xffff) | CAPEBUS_I2C_TEN_BIT_KEY :
			    cell & 0xffff;
			break;
		case CAPEBUS_BUS_SPI:
			a = cell & 0xff;
			break;
		default:
			a = cell & ~(I2C_TEN_BIT_ADDRESS | I2C_OWN_SLAVE_ADDRESS);
			break;
		}
		if (a == addr)
			return true;
	}

	return false;
}
EXPORT_SYMBOL_IF_KUNIT(capebus_bus_holds);
