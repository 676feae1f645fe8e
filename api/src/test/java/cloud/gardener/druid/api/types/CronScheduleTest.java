package cloud.gardener.druid.api.types;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Schedules are read and evaluated as robfig/cron v3's standard parser does: the table in
 * {@code cron-cases.txt} (also run against the real API server by testenv's CronAdmissionIT).
 */
class CronScheduleTest {

  /** One line of the table. */
  record Case(String expect, String schedule, Optional<ZonedDateTime> after,
      List<ZonedDateTime> activations) {

    boolean valid() {
      return !expect.equals("invalid");
    }

    @Override
    public String toString() {
      return expect + " " + schedule.replace("\t", "\\t");
    }
  }

  private static final Pattern LINE = Pattern.compile(
      "^(valid|invalid|never)\\s*\\|\\s*(\"(?:[^\"\\\\]|\\\\.)*\")\\s*(?:\\|\\s*(\\S+)\\s*"
          + "(?:\\|\\s*(.*))?)?$");

  static List<Case> cases() throws IOException {
    List<Case> cases = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    try (InputStream in = CronScheduleTest.class.getResourceAsStream("/cron-cases.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        Matcher m = LINE.matcher(line);
        assertThat(m.matches()).as("table line: " + line).isTrue();
        List<ZonedDateTime> times = m.group(4) == null ? List.of()
            : Arrays.stream(m.group(4).trim().split("\\s+")).map(ZonedDateTime::parse).toList();
        cases.add(new Case(m.group(1), json.readValue(m.group(2), String.class),
            Optional.ofNullable(m.group(3)).map(ZonedDateTime::parse), times));
      }
    }
    return cases;
  }

  static Stream<Case> table() throws IOException {
    return cases().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void parsesAsRobfigCron(Case c) {
    Optional<String> problem = CronSchedule.validate(c.schedule());
    if (c.valid()) {
      assertThat(problem).as(c.schedule()).isEmpty();
    } else {
      assertThat(problem).as(c.schedule()).isPresent();
      assertThat(problem.get()).contains("'" + c.schedule() + "'");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void firesWhenRobfigCronFires(Case c) {
    if (c.after().isEmpty()) {
      return;
    }
    CronSchedule schedule = CronSchedule.parse(c.schedule());
    ZonedDateTime t = c.after().get();
    for (ZonedDateTime expected : c.activations()) {
      Optional<ZonedDateTime> next = schedule.next(t);
      assertThat(next).as(c.schedule() + " after " + t).contains(expected);
      t = next.get();
    }
    if (c.expect().equals("never")) {
      assertThat(schedule.next(t)).as(c.schedule()).isEmpty();
    } else {
      assertThat(schedule.next(t)).as(c.schedule()).isPresent();
    }
  }

  /** The schema pattern admits every valid schedule; what it lets through, CEL refuses. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void schemaPatternAdmitsExactlyTheGrammar(Case c) {
    boolean matches = Pattern.compile(CronSchedule.PATTERN).matcher(c.schedule()).matches();
    if (c.valid()) {
      assertThat(matches).as(c.schedule()).isTrue();
    } else if (matches) {
      // only the CEL rule (range order, @every overflow) or the length limit can refuse it
      assertThat(c.schedule()).matches(s -> s.length() > CronSchedule.MAX_LENGTH
          || s.startsWith("@every ") || s.matches(".*[0-9A-Za-z]-[0-9A-Za-z].*")
          || s.matches(".*/\\+?0*[1-9][0-9]{18}.*"), "CEL case");
    }
  }

  @Test
  void tableCoversUpstreamsSampleAndEveryDescriptor() throws IOException {
    List<String> valid = cases().stream().filter(Case::valid).map(Case::schedule).toList();
    assertThat(valid).contains("0 */24 * * *", "@yearly", "@annually", "@monthly", "@weekly",
        "@daily", "@midnight", "@hourly", "@every 1h30m");
    assertThat(cases().stream().filter(c -> !c.valid()).map(Case::schedule))
        .contains("61 * * * *", "0 0 * * 7", "5-1 * * * *");
  }

  @Test
  void daylightSavingEdgesFollowRobfig() {
    // evaluated in the zone of the given time, as robfig does for schedules without TZ=
    ZonedDateTime beforeSpringForward =
        ZonedDateTime.parse("2012-03-11T00:00-05:00[America/New_York]");
    assertThat(CronSchedule.parse("0 2 * * *").next(beforeSpringForward))
        .contains(ZonedDateTime.parse("2012-03-12T02:00-04:00[America/New_York]"));
    assertThat(CronSchedule.parse("0 * * * *")
        .next(ZonedDateTime.parse("2012-03-11T01:00-05:00[America/New_York]")))
        .contains(ZonedDateTime.parse("2012-03-11T03:00-04:00[America/New_York]"));
    assertThat(CronSchedule.parse("0 1 * * *")
        .next(ZonedDateTime.parse("2012-03-11T01:00-05:00[America/New_York]")))
        .contains(ZonedDateTime.parse("2012-03-12T01:00-04:00[America/New_York]"));
  }

  @Test
  void spelledOutGrammarPiecesMatchTheParsersTables() {
    assertThat(CronParser.MONTH.names().keySet()).allSatisfy(name ->
        assertThat(CronGrammar.MONTH_NAMES).contains(anyCase(name)));
    assertThat(CronGrammar.MONTH_NAMES.split("\\|")).hasSize(12);
    assertThat(CronParser.WEEKDAY.names().keySet()).allSatisfy(name ->
        assertThat(CronGrammar.WEEKDAY_NAMES).contains(anyCase(name)));
    assertThat(CronGrammar.WEEKDAY_NAMES.split("\\|")).hasSize(7);
    CronParser.MONTH.names().forEach((name, n) ->
        assertThat(CronGrammar.CEL_NAMES).contains("'" + name + "': " + n + ","));
    CronParser.WEEKDAY.names().forEach((name, n) ->
        assertThat(CronGrammar.CEL_NAMES).containsPattern("'" + name + "': " + n + "[,}]"));
    for (int cp = 0; cp < 0x3001; cp++) {
      boolean inClass = Pattern.compile("[" + CronGrammar.SPACE + "]")
          .matcher(new String(Character.toChars(cp))).matches();
      assertThat(inClass).as("U+%04X", cp).isEqualTo(CronParser.isGoSpace(cp));
    }
  }

  private static String anyCase(String name) {
    StringBuilder sb = new StringBuilder();
    for (char c : name.toCharArray()) {
      sb.append('[').append(c).append(Character.toUpperCase(c)).append(']');
    }
    return sb.toString();
  }

  @Test
  void aScheduleThatNeverFiresMakesRunnersWaitInsteadOfFailing() {
    ZonedDateTime t = ZonedDateTime.parse("2026-12-01T15:25:00Z");
    CronSchedule february30 = CronSchedule.parse("0 0 30 2 *");
    assertThat(february30.isValid()).isTrue();
    assertThat(february30.next(t)).isEmpty();
    assertThat(february30.nextAfter(t)).isEqualTo(t.plusYears(CronSchedule.NEVER_YEARS));
    assertThat(february30.intervalAfter(t).toDays()).isGreaterThan(365L * 99);
  }

  @Test
  void intervalOfEveryIsItsRoundedDelay() {
    ZonedDateTime t = ZonedDateTime.parse("2026-12-01T15:25:00.250Z");
    assertThat(CronSchedule.parse("@every 90.9s").intervalAfter(t)).hasSeconds(90);
    assertThat(CronSchedule.parse("0 */24 * * *").intervalAfter(t)).hasHours(24);
  }
}
