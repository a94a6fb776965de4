/*
 * symedit test fixture: hand-written for symedit (Java 17).
 * A small inventory / warehouse service used to exercise symbol lookup.
 */
package com.example.warehouse;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The central stock service. Keeps items by SKU and hands out reservations.
 */
@Audited(category = "inventory")
public class Inventory implements Iterable<Inventory.Item> {

    /** Default number of items returned by searches. */
    public static final int DEFAULT_LIMIT = 50;

    // all items currently known, keyed by SKU
    private final Map<String, Item> items = new HashMap<>();

    @Deprecated(since = "2.0")
    private int legacyCounter;

    private final String name;
    private final Clock clock;
    private final StockPolicy policy;

    /** Creates an unnamed inventory using the system clock. */
    public Inventory() {
        this("default");
    }

    /**
     * Creates a named inventory using the system clock.
     *
     * @param name a human-readable name
     */
    public Inventory(String name) {
        this(name, Clock.systemUTC(), StockPolicy.always());
    }

    /**
     * Creates a fully configured inventory.
     */
    public Inventory(String name, Clock clock, StockPolicy policy) {
        this.name = Objects.requireNonNull(name);
        this.clock = clock;
        this.policy = policy;
    }

    // simple accessor, kept for bean-style callers
    public String getName() {
        return name;
    }

    /** Adds an existing item, replacing any item with the same SKU. */
    public Item add(Item item) {
        if (item == null) {
            throw new IllegalArgumentException("item must not be null");
        }
        items.put(item.sku(), item);
        return item;
    }

    /** Adds a new item with the given SKU and quantity. */
    public Item add(String sku, int quantity) {
        return add(sku, quantity, Category.DURABLE);
    }

    /** Adds a new item with an explicit category. */
    @Audited(
        category = "stock",
        level = Audited.Level.HIGH)
    public Item add(String sku, int quantity, Category category) {
        if (sku == null) {
            throw new IllegalArgumentException("sku must not be null");
        }
        Item item = new Item(sku, quantity, category);
        return add(item);
    }

    /** Iterates over all items in no particular order. */
    @Override
    @SuppressWarnings({
        "unused",
        "static-access"
    })
    public Iterator<Item> iterator() {
        return items.values().iterator();
    }

    /**
     * Removes stock for a SKU.
     *
     * @return the remaining quantity
     */
    public int remove(String sku, int quantity) throws InventoryException {
        if (sku == null) {
            throw new IllegalArgumentException("sku must not be null");
        }
        Item item = items.get(sku);
        if (item == null) {
            throw new InventoryException("unknown sku " + sku);
        }
        if (!policy.allows(item, -quantity)) {
            throw new InventoryException("policy refused removal of " + sku, quantity);
        }
        item.quantity -= quantity;
        legacyCounter++;
        return item.quantity;
    }

    /**
     * Finds items matching a filter, sorted by a key, at most {@code limit}.
     */
    public <T extends Comparable<? super T>> List<Item> findItems(
            Predicate<? super Item> filter,
            Function<? super Item, ? extends T> sortKey,
            int limit)
            throws InventoryException {
        if (limit <= 0) {
            throw new InventoryException("limit must be positive", limit);
        }
        return items.values().stream()
                .filter(filter)
                .sorted(Comparator.comparing(sortKey))
                .limit(limit)
                .collect(Collectors.toList());
    }

    /** Returns the largest element of a non-empty collection. */
    public static <T extends Comparable<? super T>> T maxOf(Collection<? extends T> values) {
        Iterator<? extends T> it = values.iterator();
        T best = it.next();
        while (it.hasNext()) {
            T next = it.next();
            if (next.compareTo(best) > 0) {
                best = next;
            }
        }
        return best;
    }

    /** Items sorted by descending quantity, using an old-style comparator. */
    public List<Item> byQuantity() {
        List<Item> sorted = new ArrayList<>(items.values());
        sorted.sort(new Comparator<Item>() {
            @Override
            public int compare(Item a, Item b) {
                return Integer.compare(b.quantity, a.quantity);
            }
        });
        return sorted;
    }

    /** Builds a plain-text stock report. */
    public String report() {
        // a local class, only visible inside this method
        class Line {
            private final Item item;

            Line(Item item) {
                this.item = item;
            }

            String format() {
                return String.format("%-12s %6d %s", item.sku(), item.quantity, item.category());
            }
        }
        StringBuilder out = new StringBuilder("Inventory " + name + "\n");
        items.values().stream()
                .map(Line::new)
                .forEach(line -> out.append(line.format()).append('\n'));
        return out.toString();
    }

    /** Opens a reservation against this inventory. */
    public Reservation reserve(String sku, int quantity) {
        return new Reservation(sku, quantity);
    }

    /**
     * A stock-keeping unit. Static nested: it does not need the enclosing inventory.
     */
    public static class Item implements Identifiable<String> {
        private final String sku;
        int quantity;
        private final Category category;

        public Item(String sku, int quantity, Category category) {
            this.sku = sku;
            this.quantity = quantity;
            this.category = category;
        }

        public Item(String sku) {
            this(sku, 0, Category.DURABLE);
        }

        public String sku() {
            return sku;
        }

        @Override
        public String id() {
            return sku;
        }

        public Category category() {
            return category;
        }

        @Override
        public String toString() {
            return "Item[" + sku + " x" + quantity + "]";
        }
    }

    /**
     * A pending reservation. Inner (non-static): it reads the enclosing inventory's items.
     */
    public class Reservation {
        private final String sku;
        private final int quantity;
        private final Instant createdAt;

        Reservation(String sku, int quantity) {
            if (sku == null) {
                throw new IllegalArgumentException("sku must not be null");
            }
            this.sku = sku;
            this.quantity = quantity;
            this.createdAt = clock.instant();
        }

        /** Commits the reservation, removing the stock. */
        public int commit() throws InventoryException {
            return remove(sku, quantity);
        }

        public boolean isAvailable() {
            Item item = items.get(sku);
            return item != null && item.quantity >= quantity;
        }

        public Instant createdAt() {
            return createdAt;
        }
    }
}

/** Something with a stable identifier. */
interface Identifiable<K> {
    K id();
}

/**
 * Decides whether a stock change is allowed.
 */
@FunctionalInterface
interface StockPolicy {

    /** Returns true when {@code delta} may be applied to {@code item}. */
    boolean allows(Inventory.Item item, int delta);

    /** Combines two policies; both must allow the change. */
    default StockPolicy and(StockPolicy other) {
        return (item, delta) -> allows(item, delta) && other.allows(item, delta);
    }

    /** A policy that allows everything. */
    static StockPolicy always() {
        return (item, delta) -> true;
    }

    /** A policy that never lets stock go negative. */
    static StockPolicy nonNegative() {
        return (item, delta) -> item.quantity + delta >= 0;
    }
}

/**
 * Storage abstraction with a template method for saving.
 */
abstract class AbstractRepository<K extends Comparable<K>, V extends Identifiable<K>> {

    protected final Map<K, V> store = new HashMap<>();

    /** Hook run before a value is saved. */
    protected abstract void beforeSave(V value);

    /** Name used in log messages. */
    public abstract String describe();

    public final V save(V value) {
        if (value == null) {
            throw new IllegalArgumentException("item must not be null");
        }
        beforeSave(value);
        store.put(value.id(), value);
        return value;
    }

    public Optional<V> find(K key) {
        return Optional.ofNullable(store.get(key));
    }

    public <R> List<R> mapAll(Function<? super V, ? extends R> mapper) {
        List<R> out = new ArrayList<>();
        for (V v : store.values()) {
            out.add(mapper.apply(v));
        }
        return out;
    }
}

/** Repository of items keyed by SKU. */
final class ItemRepository extends AbstractRepository<String, Inventory.Item> {

    @Override
    protected void beforeSave(Inventory.Item value) {
        if (value.sku().isBlank()) {
            throw new IllegalArgumentException("blank sku");
        }
    }

    @Override
    public String describe() {
        return "items(" + store.size() + ")";
    }
}

/** Coarse product categories. */
enum Category {
    PERISHABLE("P", 7),
    DURABLE("D", 365),
    HAZARDOUS("H", 30);

    private final String code;
    private final int shelfLifeDays;

    Category(String code, int shelfLifeDays) {
        this.code = code;
        this.shelfLifeDays = shelfLifeDays;
    }

    public String code() {
        return code;
    }

    public boolean expiresWithin(int days) {
        return shelfLifeDays <= days;
    }

    /** Looks a category up by its one-letter code. */
    static Category fromCode(String code) {
        for (Category c : values()) {
            if (c.code.equals(code)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown category code " + code);
    }
}

/** An immutable snapshot of one SKU's stock level. */
record StockLevel(String sku, int quantity) implements Comparable<StockLevel> {

    /** Compact constructor: validates the components. */
    StockLevel {
        if (sku == null) {
            throw new IllegalArgumentException("sku must not be null");
        }
        if (quantity < 0) {
            throw new IllegalArgumentException("negative quantity");
        }
    }

    @Override
    public int compareTo(StockLevel other) {
        return Integer.compare(quantity, other.quantity);
    }

    static StockLevel of(Inventory.Item item) {
        return new StockLevel(item.sku(), item.quantity);
    }
}

/** Marks operations that must be written to the audit log. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@interface Audited {

    /** Audit category. */
    String category();

    Level level() default Level.NORMAL;

    /** How loud the audit entry is. */
    enum Level { NORMAL, HIGH }
}

/** Checked exception for stock problems. */
class InventoryException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int amount;

    InventoryException(String message) {
        this(message, 0);
    }

    InventoryException(String message, int amount) {
        super(message);
        this.amount = amount;
    }

    int amount() {
        return amount;
    }
}
