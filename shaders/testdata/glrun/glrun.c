// glrun: runs one GLSL ES 3.10 compute shader on the EGL driver the
// environment selects (glvnd: __EGL_VENDOR_LIBRARY_FILENAMES), with no
// WebGPU implementation in between, so a finding seen through a WebGPU GL
// backend can be pinned on the GL driver's own compiler
// (shaders/mesa_glsl_test.go). The shader's std430 buffer at binding 0
// holds four ints, zero before one 1x1x1 dispatch; glrun prints the
// renderer and version, then "out: a b c d". Exit 1 with a message when
// EGL, the context, compiling or linking fails.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <stdio.h>
#include <stdlib.h>

static char *readAll(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = calloc(n + 1, 1);
  if (fread(s, 1, n, f) != (size_t)n) { fclose(f); return NULL; }
  fclose(f);
  return s;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: glrun SHADER.comp\n"); return 2; }
  char *src = readAll(argv[1]);
  if (!src) { fprintf(stderr, "glrun: cannot read %s\n", argv[1]); return 2; }
  EGLDisplay d = EGL_NO_DISPLAY;
  PFNEGLGETPLATFORMDISPLAYEXTPROC platformDisplay = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  if (platformDisplay) d = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (d == EGL_NO_DISPLAY) d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (!eglInitialize(d, NULL, NULL)) { printf("glrun: eglInitialize failed (0x%x)\n", eglGetError()); return 1; }
  eglBindAPI(EGL_OPENGL_ES_API);
  EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE};
  EGLConfig cfg = NULL;
  EGLint n = 0;
  eglChooseConfig(d, want, &cfg, 1, &n);
  EGLint version[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLContext c = eglCreateContext(d, n ? cfg : NULL, EGL_NO_CONTEXT, version);
  if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
    printf("glrun: no GLES 3.1 context (0x%x)\n", eglGetError());
    return 1;
  }
  printf("renderer: %s | %s\n", glGetString(GL_RENDERER), glGetString(GL_VERSION));
  char log[4096];
  GLint ok = 0;
  GLuint s = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(s, 1, (const char *const *)&src, NULL);
  glCompileShader(s);
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) { glGetShaderInfoLog(s, sizeof log, NULL, log); printf("glrun: compile: %s\n", log); return 1; }
  GLuint p = glCreateProgram();
  glAttachShader(p, s);
  glLinkProgram(p);
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) { glGetProgramInfoLog(p, sizeof log, NULL, log); printf("glrun: link: %s\n", log); return 1; }
  int data[4] = {0, 0, 0, 0};
  GLuint b;
  glGenBuffers(1, &b);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof data, data, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b);
  glUseProgram(p);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
  const int *out = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, sizeof data, GL_MAP_READ_BIT);
  if (!out) { printf("glrun: glMapBufferRange failed (0x%x)\n", glGetError()); return 1; }
  printf("out: %d %d %d %d\n", out[0], out[1], out[2], out[3]);
  return 0;
}
