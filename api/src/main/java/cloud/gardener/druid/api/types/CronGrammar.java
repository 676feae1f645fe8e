package cloud.gardener.druid.api.types;

/**
 * The admission-time form of {@link CronParser}: a schema pattern and a CEL rule that together
 * admit exactly the schedules the parser accepts, so that nothing the API server admits is
 * refused later. The pattern checks the grammar and each value's range; the rule checks what a
 * regular expression cannot: that a range does not start after its end, and that an
 * {@code @every} duration fits Go's 64-bit nanoseconds (CEL's {@code duration()} is Go's
 * {@code time.ParseDuration}). Written as compile-time constants for the CRD annotations;
 * CronScheduleTest checks the spelled-out pieces against the parser's tables.
 */
final class CronGrammar {

  /** Longest schedule admitted; bounds the CEL rule's cost (robfig/cron sets no limit). */
  static final int MAX_LENGTH = 256;

  /** Go's {@code unicode.IsSpace}, as a character class body (RE2 and Java alike). */
  static final String SPACE =
      "\\x{09}-\\x{0D}\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}"
          + "\\x{202F}\\x{205F}\\x{3000}";

  static final String MONTH_NAMES = "[jJ][aA][nN]|[fF][eE][bB]|[mM][aA][rR]|[aA][pP][rR]"
      + "|[mM][aA][yY]|[jJ][uU][nN]|[jJ][uU][lL]|[aA][uU][gG]|[sS][eE][pP]|[oO][cC][tT]"
      + "|[nN][oO][vV]|[dD][eE][cC]";

  static final String WEEKDAY_NAMES = "[sS][uU][nN]|[mM][oO][nN]|[tT][uU][eE]|[wW][eE][dD]"
      + "|[tT][hH][uU]|[fF][rR][iI]|[sS][aA][tT]";

  /**
   * Go's {@code strconv.Atoi} of a positive value: a '+', leading zeros, at most 19 digits;
   * the rule checks that 19 digits stay within 2^63-1.
   */
  private static final String STEP = "(/\\+?0*[1-9][0-9]{0,18})?";

  /** After * or ?, robfig ignores anything up to the step. */
  private static final String STAR = "[*?](-[^/," + SPACE + "]*)?";

  private static final String MINUTE = "(\\+?0*([1-5]?[0-9]))";
  private static final String HOUR = "(\\+?0*(1?[0-9]|2[0-3]))";
  private static final String DAY = "(\\+?0*([1-9]|[12][0-9]|3[01]))";
  private static final String MONTH = "(\\+?0*([1-9]|1[0-2])|" + MONTH_NAMES + ")";
  private static final String WEEKDAY = "(\\+?0*[0-6]|" + WEEKDAY_NAMES + ")";

  private static final String MINUTE_RANGE = "(" + STAR + "|" + MINUTE + "(-" + MINUTE + ")?)"
      + STEP;
  private static final String HOUR_RANGE = "(" + STAR + "|" + HOUR + "(-" + HOUR + ")?)" + STEP;
  private static final String DAY_RANGE = "(" + STAR + "|" + DAY + "(-" + DAY + ")?)" + STEP;
  private static final String MONTH_RANGE = "(" + STAR + "|" + MONTH + "(-" + MONTH + ")?)"
      + STEP;
  private static final String WEEKDAY_RANGE = "(" + STAR + "|" + WEEKDAY + "(-" + WEEKDAY
      + ")?)" + STEP;

  /** Lists skip empty items, as robfig does; at least one range per field. */
  private static final String FIELDS = "[" + SPACE + "]*"
      + ",*" + MINUTE_RANGE + "(,+" + MINUTE_RANGE + ")*,*[" + SPACE + "]+"
      + ",*" + HOUR_RANGE + "(,+" + HOUR_RANGE + ")*,*[" + SPACE + "]+"
      + ",*" + DAY_RANGE + "(,+" + DAY_RANGE + ")*,*[" + SPACE + "]+"
      + ",*" + MONTH_RANGE + "(,+" + MONTH_RANGE + ")*,*[" + SPACE + "]+"
      + ",*" + WEEKDAY_RANGE + "(,+" + WEEKDAY_RANGE + ")*,*[" + SPACE + "]*";

  static final String PATTERN = "^(" + FIELDS
      + "|@(yearly|annually|monthly|weekly|daily|midnight|hourly)"
      + "|@every " + GoDurationSyntax.REGEX + ")$";

  /** Month and weekday names with their numbers, as a CEL map. */
  static final String CEL_NAMES = "{'jan': 1, 'feb': 2, 'mar': 3, 'apr': 4, 'may': 5,"
      + " 'jun': 6, 'jul': 7, 'aug': 8, 'sep': 9, 'oct': 10, 'nov': 11, 'dec': 12, 'sun': 0,"
      + " 'mon': 1, 'tue': 2, 'wed': 3, 'thu': 4, 'fri': 5, 'sat': 6}";

  private static final String LOW = "m.find('[+0-9A-Za-z]+')";
  private static final String HIGH = "m.split('-')[1]";

  static final String RULE = "self.startsWith('@every ')"
      + " ? duration(self.substring(7)) == duration(self.substring(7))"
      + " : self.startsWith('@') || self.findAll('/[+]?0*[1-9][0-9]{18}')"
      + ".all(s, s.substring(size(s) - 19) <= '" + Long.MAX_VALUE + "')"
      + " && self.findAll('(^|[^-+0-9A-Za-z*?/])[+0-9A-Za-z]+-[+0-9A-Za-z]+').all(m,"
      + " (" + LOW + ".matches('^[+]?0*[0-9]{1,2}$') ? int(" + LOW + ") : " + LOW
      + ".lowerAscii() in " + CEL_NAMES + " ? " + CEL_NAMES + "[" + LOW + ".lowerAscii()] : 0)"
      + " <= (" + HIGH + ".matches('^[+]?0*[0-9]{1,2}$') ? int(" + HIGH + ") : " + HIGH
      + ".lowerAscii() in " + CEL_NAMES + " ? " + CEL_NAMES + "[" + HIGH + ".lowerAscii()] : 0))";

  static final String RULE_MESSAGE = "must be a schedule robfig/cron accepts: no range may"
      + " start after its end, steps are at most 9223372036854775807, and an @every duration"
      + " must be below 2562048h";

  private CronGrammar() {
  }
}
