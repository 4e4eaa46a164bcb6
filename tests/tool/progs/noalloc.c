/* Allocates nothing: the profile is still complete and valid. */
int main(void)
{
   return 0;
}
