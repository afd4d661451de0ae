// One-off Vulkan compute runner (not part of gpudiff): vkrun MODULE.spv ENTRY X Y Z [u:|s:]BUF...
// Each BUF file is bound at set 0, binding i (u: uniform, else storage); storage buffers are
// written back to BUF.out after the dispatch.
#include <vulkan/vulkan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { fprintf(stderr, "%s failed: %d\n", #x, r_); exit(1); } } while (0)
static void *readf(const char *p, size_t *n) {
  FILE *f = fopen(p, "rb"); if (!f) { perror(p); exit(1); }
  fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
  void *b = malloc(*n ? *n : 4); fread(b, 1, *n, f); fclose(f); return b;
}
int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage\n"); return 2; }
  int nb = argc - 6;
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, 0, "vkrun", 1, "vkrun", 1, VK_API_VERSION_1_2};
  VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, 0, 0, &app};
  VkInstance inst; CK(vkCreateInstance(&ici, 0, &inst));
  uint32_t np = 8; VkPhysicalDevice pds[8]; CK(vkEnumeratePhysicalDevices(inst, &np, pds));
  VkPhysicalDevice pd = 0;
  for (uint32_t i = 0; i < np; i++) { VkPhysicalDeviceProperties p; vkGetPhysicalDeviceProperties(pds[i], &p); if (strstr(p.deviceName, "llvmpipe")) pd = pds[i]; }
  if (!pd) { fprintf(stderr, "no llvmpipe\n"); return 1; }
  float prio = 1;
  VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, 0, 0, 0, 1, &prio};
  VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.shaderFloat16 = 1; f12.shaderSubgroupExtendedTypes = 1;
  VkPhysicalDeviceVulkan11Features f11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
  f11.storageBuffer16BitAccess = 1; f11.uniformAndStorageBuffer16BitAccess = 1;
  VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f11, 0, 1, &qci};
  VkDevice dev; CK(vkCreateDevice(pd, &dci, 0, &dev));
  VkQueue q; vkGetDeviceQueue(dev, 0, 0, &q);
  VkPhysicalDeviceMemoryProperties mp; vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  enum { MAXB = 64 }; if (nb > MAXB) { fprintf(stderr, "too many buffers\n"); return 2; }
  VkBuffer bufs[MAXB]; VkDeviceMemory mems[MAXB]; size_t sizes[MAXB]; int uni[MAXB]; const char *names[MAXB];
  VkDescriptorSetLayoutBinding lb[MAXB];
  for (int i = 0; i < nb; i++) {
    const char *a = argv[6 + i]; uni[i] = 0;
    if (!strncmp(a, "u:", 2)) { uni[i] = 1; a += 2; } else if (!strncmp(a, "s:", 2)) a += 2;
    names[i] = a;
    void *data = readf(a, &sizes[i]);
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, 0, 0, sizes[i], uni[i] ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    CK(vkCreateBuffer(dev, &bci, 0, &bufs[i]));
    VkMemoryRequirements mr; vkGetBufferMemoryRequirements(dev, bufs[i], &mr);
    uint32_t t = 0; for (; t < mp.memoryTypeCount; t++) if ((mr.memoryTypeBits >> t & 1) && (mp.memoryTypes[t].propertyFlags & 6) == 6) break;
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, 0, mr.size, t};
    CK(vkAllocateMemory(dev, &mai, 0, &mems[i])); CK(vkBindBufferMemory(dev, bufs[i], mems[i], 0));
    void *m; CK(vkMapMemory(dev, mems[i], 0, sizes[i], 0, &m)); memcpy(m, data, sizes[i]); vkUnmapMemory(dev, mems[i]);
    lb[i] = (VkDescriptorSetLayoutBinding){i, uni[i] ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT};
  }
  VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, 0, 0, nb, lb};
  VkDescriptorSetLayout dsl; CK(vkCreateDescriptorSetLayout(dev, &dl, 0, &dsl));
  VkPipelineLayoutCreateInfo pl = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, 0, 0, 1, &dsl};
  VkPipelineLayout play; CK(vkCreatePipelineLayout(dev, &pl, 0, &play));
  size_t cn; uint32_t *code = readf(argv[1], &cn);
  VkShaderModuleCreateInfo smi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, 0, 0, cn, code};
  VkShaderModule sm; CK(vkCreateShaderModule(dev, &smi, 0, &sm));
  VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, 0, 0,
    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, 0, 0, VK_SHADER_STAGE_COMPUTE_BIT, sm, argv[2]}, play};
  VkPipeline pipe; CK(vkCreateComputePipelines(dev, 0, 1, &cpi, 0, &pipe));
  VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MAXB}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, MAXB}};
  VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, 0, 0, 1, 2, ps};
  VkDescriptorPool dp; CK(vkCreateDescriptorPool(dev, &dpi, 0, &dp));
  VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, 0, dp, 1, &dsl};
  VkDescriptorSet ds; CK(vkAllocateDescriptorSets(dev, &dai, &ds));
  for (int i = 0; i < nb; i++) {
    VkDescriptorBufferInfo bi = {bufs[i], 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, 0, ds, i, 0, 1, lb[i].descriptorType, 0, &bi};
    vkUpdateDescriptorSets(dev, 1, &w, 0, 0);
  }
  VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, 0, 0, 0};
  VkCommandPool cp; CK(vkCreateCommandPool(dev, &cpci, 0, &cp));
  VkCommandBufferAllocateInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, 0, cp, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb; CK(vkAllocateCommandBuffers(dev, &cbi, &cb));
  VkCommandBufferBeginInfo bbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  CK(vkBeginCommandBuffer(cb, &bbi));
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, play, 0, 1, &ds, 0, 0);
  vkCmdDispatch(cb, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
  CK(vkEndCommandBuffer(cb));
  VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, 0, 0, 0, 0, 1, &cb};
  CK(vkQueueSubmit(q, 1, &si, 0)); CK(vkQueueWaitIdle(q));
  for (int i = 0; i < nb; i++) {
    if (uni[i]) continue;
    void *m; CK(vkMapMemory(dev, mems[i], 0, sizes[i], 0, &m));
    char p[4096]; snprintf(p, sizeof p, "%s.out", names[i]);
    FILE *f = fopen(p, "wb"); fwrite(m, 1, sizes[i], f); fclose(f);
    vkUnmapMemory(dev, mems[i]);
  }
  return 0;
}
