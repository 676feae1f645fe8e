import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Collections;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Copies a jar and rewrites the class files under the given package prefixes that are older
 * than class-file version 50 (Java 6) to version 52, with stack map tables (JDK 25's
 * java.lang.classfile API). A JDK 25 AOT cache leaves out classes of version 49 and older
 * (they need the old, type-inferencing verifier), so picocli's ~180 classes, compiled for
 * Java 5, would otherwise load and verify from the jar at every start.
 *
 * <p>Run with the source launcher of a JDK 25: {@code java ClassFileUpgrade.java IN.jar
 * OUT.jar picocli/}. The output depends only on the input: entries in the input's order, each
 * with its own time and extra fields, every other entry's bytes unchanged.
 */
public final class ClassFileUpgrade {
  private static final int OLDEST_KEPT = ClassFile.JAVA_6_VERSION;
  private static final int TARGET = ClassFile.JAVA_8_VERSION;

  public static void main(String[] args) throws IOException {
    if (args.length < 3) {
      System.err.println("usage: java ClassFileUpgrade.java IN.jar OUT.jar PACKAGE_PREFIX...");
      System.exit(2);
    }
    Path in = Path.of(args[0]);
    Path out = Path.of(args[1]);
    String[] prefixes = Arrays.copyOfRange(args, 2, args.length);
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    int upgraded = 0;
    try (ZipFile zip = new ZipFile(in.toFile());
        ZipOutputStream zos = new ZipOutputStream(Files.newOutputStream(tmp))) {
      ClassFile classFile = ClassFile.of(
          ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
          ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
              .orElse(ClassHierarchyResolver.ofResourceParsing(desc -> open(zip, desc)))
              .cached()));
      for (ZipEntry entry : Collections.list(zip.entries())) {
        byte[] bytes;
        try (InputStream is = zip.getInputStream(entry)) {
          bytes = is.readAllBytes();
        }
        ZipEntry copy = new ZipEntry(entry);
        if (isOldClass(entry.getName(), bytes, prefixes)) {
          bytes = upgrade(classFile, bytes);
          upgraded++;
        }
        CRC32 crc = new CRC32();
        crc.update(bytes);
        copy.setSize(bytes.length);
        copy.setCrc(crc.getValue());
        copy.setCompressedSize(copy.getMethod() == ZipEntry.STORED ? bytes.length : -1);
        zos.putNextEntry(copy);
        zos.write(bytes);
        zos.closeEntry();
      }
    }
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
    System.err.println("druid: upgraded " + upgraded + " class files of "
        + String.join(", ", prefixes)
        + " to version " + TARGET + " in " + out);
  }

  private static boolean isOldClass(String name, byte[] bytes, String[] prefixes) {
    if (!name.endsWith(".class") || name.startsWith("META-INF/") || bytes.length < 8) {
      return false;
    }
    boolean inScope = false;
    for (String prefix : prefixes) {
      inScope |= name.startsWith(prefix);
    }
    int major = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
    return inScope && major < OLDEST_KEPT;
  }

  private static byte[] upgrade(ClassFile classFile, byte[] bytes) {
    ClassModel model = classFile.parse(bytes);
    ClassTransform toTarget = (builder, element) -> {
      if (element instanceof ClassFileVersion) {
        builder.withVersion(TARGET, 0);
      } else {
        builder.with(element);
      }
    };
    // Rebuilding every method body makes the API write the stack map tables (an unchanged
    // body would be copied as it is, without one).
    return classFile.transformClass(model,
        toTarget.andThen(ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)));
  }

  private static InputStream open(ZipFile zip, ClassDesc desc) {
    String descriptor = desc.descriptorString();
    ZipEntry entry = zip.getEntry(descriptor.substring(1, descriptor.length() - 1) + ".class");
    try {
      return entry == null ? null : zip.getInputStream(entry);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
