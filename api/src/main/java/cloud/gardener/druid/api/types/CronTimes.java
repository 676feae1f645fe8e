package cloud.gardener.druid.api.types;

import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * What a parsed schedule computes: its activations. The two forms of robfig/cron v3's
 * standard parser: five fields (a {@code SpecSchedule} with seconds fixed at 0) and
 * {@code @every <duration>} (a {@code ConstantDelaySchedule}).
 */
sealed interface CronTimes {

  /** The first activation strictly after {@code after}, or empty when there is none. */
  Optional<ZonedDateTime> next(ZonedDateTime after);

  /** A fixed delay, rounded as robfig's {@code Every}: at least 1s, whole seconds. */
  record Every(long delayNanos) implements CronTimes {

    static final long SECOND = 1_000_000_000L;

    static Every of(long nanos) {
      long atLeastOneSecond = Math.max(nanos, SECOND);
      return new Every(atLeastOneSecond - atLeastOneSecond % SECOND);
    }

    @Override
    public Optional<ZonedDateTime> next(ZonedDateTime after) {
      return Optional.of(after.plusNanos(delayNanos - after.getNano()));
    }
  }

  /**
   * Bit sets of the selected minutes, hours, days of month, months and weekdays (Sunday 0).
   * Bit 63 marks a field written as {@code *} or {@code ?} without a step above 1; as in
   * robfig/cron, day of month and weekday must both match when either carries it, and
   * either may match when neither does.
   */
  record Fields(long minutes, long hours, long daysOfMonth, long months, long weekdays)
      implements CronTimes {

    static final long STAR = 1L << 63;

    /** robfig/cron gives up after five years and reports "never". */
    private static final int YEARS_SEARCHED = 5;

    @Override
    public Optional<ZonedDateTime> next(ZonedDateTime after) {
      // the steps of robfig's SpecSchedule.Next, so that daylight-saving edges behave alike
      ZonedDateTime t = after.plusNanos(1_000_000_000L - after.getNano());
      boolean added = false;
      int yearLimit = t.getYear() + YEARS_SEARCHED;
      wrap:
      while (true) {
        if (t.getYear() > yearLimit) {
          return Optional.empty();
        }
        while (!has(months, t.getMonthValue())) {
          if (!added) {
            added = true;
            t = t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS);
          }
          t = t.plusMonths(1);
          if (t.getMonthValue() == 1) {
            continue wrap;
          }
        }
        while (!dayMatches(t)) {
          if (!added) {
            added = true;
            t = t.truncatedTo(ChronoUnit.DAYS);
          }
          t = t.plusDays(1);
          // midnight may not exist on a daylight-saving day
          if (t.getHour() != 0) {
            t = t.getHour() > 12 ? t.plusHours(24 - t.getHour()) : t.minusHours(t.getHour());
          }
          if (t.getDayOfMonth() == 1) {
            continue wrap;
          }
        }
        while (!has(hours, t.getHour())) {
          if (!added) {
            added = true;
            t = t.truncatedTo(ChronoUnit.HOURS);
          }
          t = t.plusHours(1);
          if (t.getHour() == 0) {
            continue wrap;
          }
        }
        while (!has(minutes, t.getMinute())) {
          if (!added) {
            added = true;
            t = t.truncatedTo(ChronoUnit.MINUTES);
          }
          t = t.plusMinutes(1);
          if (t.getMinute() == 0) {
            continue wrap;
          }
        }
        while (t.getSecond() != 0) {
          if (!added) {
            added = true;
            t = t.truncatedTo(ChronoUnit.SECONDS);
          }
          t = t.plusSeconds(1);
          if (t.getSecond() == 0) {
            continue wrap;
          }
        }
        return Optional.of(t);
      }
    }

    private boolean dayMatches(ZonedDateTime t) {
      boolean dom = has(daysOfMonth, t.getDayOfMonth());
      boolean dow = has(weekdays, t.getDayOfWeek().getValue() % 7);
      if ((daysOfMonth & STAR) != 0 || (weekdays & STAR) != 0) {
        return dom && dow;
      }
      return dom || dow;
    }

    private static boolean has(long bits, int value) {
      return (bits & (1L << value)) != 0;
    }
  }
}
