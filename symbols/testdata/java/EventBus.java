// Hand-written for symedit's tests (issue 16): anonymous classes, enum
// constant bodies and annotation type elements, as real Java code uses
// them. It compiles on its own: javac -d /tmp/out EventBus.java
package bus;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TimerTask;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** Marks a listener method. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@interface Subscribe {
    /** The topic; all topics when empty. */
    String topic() default "";

    int priority() default 0;

    Class<?>[] events();
}

/** A tiny synchronous event bus. */
public class EventBus {
    /** Orders entries by value, then by key. */
    static final Comparator<Map.Entry<String, Integer>> BY_VALUE =
        new Comparator<Map.Entry<String, Integer>>() {
            @Override
            public int compare(Map.Entry<String, Integer> a, Map.Entry<String, Integer> b) {
                int c = Integer.compare(a.getValue(), b.getValue());
                return c != 0 ? c : a.getKey().compareTo(b.getKey());
            }
        };

    /** How a delivery failure is handled. */
    enum Policy {
        IGNORE {
            @Override
            void onFailure(Exception e) {
            }
        },
        LOG {
            private int logged;

            @Override
            void onFailure(Exception e) {
                logged++;
                System.err.println("delivery failed (" + logged + "): " + e);
            }
        },
        RETHROW;

        void onFailure(Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A listener of one topic. */
    interface Listener {
        void onEvent(String topic, Object event);
    }

    private final List<Listener> listeners = new ArrayList<>();
    private final Policy policy;

    public EventBus(Policy policy) {
        this.policy = policy;
    }

    /** Registers a listener that forwards to target. */
    public Listener forward(final EventBus target) {
        Listener l = new Listener() {
            private int seen;

            {
                seen = 0;
            }

            @Override
            public void onEvent(String topic, Object event) {
                seen++;
                target.post(topic, event);
            }

            @Override
            public String toString() {
                return "forward(" + seen + ")";
            }
        };
        listeners.add(l);
        return l;
    }

    public void post(String topic, Object event) {
        for (Listener l : listeners) {
            try {
                l.onEvent(topic, event);
            } catch (RuntimeException e) {
                policy.onFailure(e);
            }
        }
    }

    /** Reads a system property with the caller's permissions. */
    static String property(final String name) {
        return AccessController.doPrivileged(new PrivilegedAction<String>() {
            public String run() {
                return System.getProperty(name);
            }
        });
    }

    /** A timer task that wraps a Runnable given as a constructor argument. */
    static Thread worker(final Runnable job) {
        return new Thread(new Runnable() {
            public void run() {
                job.run();
            }
        }) {
            @Override
            public void run() {
                setName("worker");
                super.run();
            }
        };
    }

    static TimerTask tick(final Supplier<Callable<String>> factory) {
        return new java.util.TimerTask() {
            @Override
            public void run() {
                Supplier<Object> s = () -> new Object() {
                    @Override
                    public String toString() {
                        return "lambda-made";
                    }
                };
                System.out.println(s.get());
            }
        };
    }

    /** A local class with an anonymous class inside it. */
    static Runnable counter() {
        class Counter implements Runnable {
            int n;

            public void run() {
                Callable<Integer> next = new Callable<Integer>() {
                    public Integer call() {
                        return ++n;
                    }
                };
                try {
                    next.call();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return new Counter();
    }

    /** A record with a compact constructor. */
    record Delivery(String topic, Object event) {
        Delivery {
            if (topic == null) {
                throw new NullPointerException("topic");
            }
        }
    }
}
