// fa4-compile --help lists the pipeline options with their defaults, after
// its own options.
// RUN: fa4-compile --help | FileCheck %s
// CHECK: --quiet
// CHECK: Pipeline options, as --name=value (shown with their defaults; described by `fa4-opt --help` under --fa4-compile):
// CHECK-NEXT: {{^  \{batch-hint=-1 .*device-tensor-maps=false .*\}$}}
